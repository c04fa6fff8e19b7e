// Why a move or a request was refused, in the player's language.
//
// The rules and the server refuse with a message key and parameters (see refusals.json); this module fills
// them in; the computer players' reasons for a hint likewise (hints.json). A parameter's name says what it holds:
// card/*_card a card, cards/*_cards cards, suit/*_suit a suit, suits a list of suits, seat/*_seat a seat, actions
// moves as typed, option an option's name, placements typed rummy placements; a number is written the page's way
// (*_delta with its sign) and {key, params} is a phrase said in the same language.

import { lang, seatName, t } from "./i18n.js";
import { prettyCard } from "./cards.js";
import { optionLabel } from "./labels.js";

// refusals.json: the rules' and the server's refusals; hints.json: the computer players' reasons for a hint.
async function load(path) {
  const response = await fetch(path);
  return response.ok ? response.json() : { en: {}, fr: {} };
}
const [REFUSALS, HINTS] = await Promise.all([load("/static/refusals.json"), load("/static/hints.json")]);
const TABLE = Object.fromEntries(["en", "fr"].map((code) => [code, { ...(REFUSALS[code] || {}), ...(HINTS[code] || {}) }]));

function number(value, signed) {
  const format = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: signed ? "exceptZero" : "auto" });
  return format.format(value);
}

// A typed rummy placement: a card, or a wild and the card it stands for (JK=7H).
function placement(text) {
  return String(text).split("=").map((code) => prettyCard(code)).join("=");
}

function fillIn(template, params, seatLabel) {
  return template.replace(/\{(\w+)\}/g, (_, name) => say(name, params[name], seatLabel));
}

function say(name, value, seatLabel) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && value.key) {
    // a phrase within the sentence, said in the same language
    const template = (TABLE[lang] || {})[value.key];
    return template === undefined ? "" : fillIn(template, value.params || {}, seatLabel);
  }
  if (typeof value === "number") return number(value, name.endsWith("_delta"));
  const list = Array.isArray(value) ? value : null;
  if (name === "placements") return (list || [value]).map(placement).join(" ");
  if (name === "card" || name.endsWith("_card")) return prettyCard(String(value));
  if (name === "cards" || name.endsWith("_cards")) return (list || [value]).map((c) => prettyCard(String(c))).join(" ");
  if (name === "suit" || name.endsWith("_suit")) return t(`suit.${value}`);
  if (name === "suits") return (list || [value]).map((s) => t(`suit.${s}`)).join(", ");
  if (name === "seat" || name.endsWith("_seat")) return seatLabel(String(value));
  if (name === "seats") return (list || [value]).map((s) => seatName(String(s))).join(", ");
  if (name === "actions") return (list || [value]).join(", ");
  if (name === "option") return optionLabel(String(value));
  return list ? list.join(", ") : String(value);
}

export function hasRefusal(key) {
  return !!key && key in (TABLE[lang] || {}) && key in TABLE.en;
}

// The sentence for a refusal {key, params, code}; the server's English only on an English page. A sentence about
// the reader's own seat ({seat} is ``you``) has its own form where the table has one (KEY.you: "You are deciding
// whether to exchange", not "South is deciding").
export function refusalText(refusal, seatLabel = seatName, you = null) {
  const params = refusal.params || {};
  const words = TABLE[lang] || {};
  const own = you && params.seat === you && refusal.key ? words[`${refusal.key}.you`] : undefined;
  const template = own ?? words[refusal.key] ?? (refusal.code ? words[`server.${refusal.code}`] : undefined);
  if (template === undefined) {
    if (lang === "en" && refusal.message) return refusal.message;
    return t(refusal.code ? `error.${refusal.code}` : "table.refused");
  }
  const text = fillIn(template, params, seatLabel);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Why a request to the server failed (an ApiError, or the network), in the person's language.
export function errorText(error) {
  if (error && error.key !== undefined) return refusalText({ key: error.key, params: error.params, code: error.code, message: error.message });
  return lang === "en" && error && error.message ? error.message : t("table.refused");
}

// A computer player's reason for a hint {key, params, reason}, in the player's language; the English sentence
// only on an English page (a player whose reason has no key), nothing on another page.
export function hintText(hint) {
  const template = (TABLE[lang] || {})[hint.key];
  if (template === undefined) return lang === "en" ? hint.reason || "" : "";
  const text = fillIn(template, hint.params || {}, seatName);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
