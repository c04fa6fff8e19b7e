// Why a move or a request was refused, in the player's language.
//
// The rules and the server refuse with a message key and parameters (see refusals.json); this module fills
// them in. A parameter's name says what it holds: card/*_card a card, cards/*_cards cards, suit/*_suit a suit,
// suits a list of suits, seat/*_seat a seat, actions moves as typed, option an option's name.

import { lang, seatName, t } from "./i18n.js";
import { prettyCard } from "./cards.js";
import { optionLabel } from "./labels.js";

const response = await fetch("/static/refusals.json");
const TABLE = response.ok ? await response.json() : { en: {}, fr: {} };

function say(name, value, seatLabel) {
  if (value === null || value === undefined) return "";
  const list = Array.isArray(value) ? value : null;
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

// The sentence for a refusal {key, params, code}; the server's English only on an English page.
export function refusalText(refusal, seatLabel = seatName) {
  const params = refusal.params || {};
  const template = (TABLE[lang] || {})[refusal.key] ?? (refusal.code ? (TABLE[lang] || {})[`server.${refusal.code}`] : undefined);
  if (template === undefined) {
    if (lang === "en" && refusal.message) return refusal.message;
    return t(refusal.code ? `error.${refusal.code}` : "table.refused");
  }
  const text = template.replace(/\{(\w+)\}/g, (_, name) => say(name, params[name], seatLabel));
  return text.charAt(0).toUpperCase() + text.slice(1);
}
