// A move said in words and card symbols, in the page's language: "played 3♠" / "a joué le 3♠", "exchanged" /
// "a échangé". Sentences never show the typed notation ("play 3S"): that is for the typed move only.

import { lang, t } from "./i18n.js";
import { prettyCard, suitSymbol } from "./cards.js";

// A card with the article the language wants before it: "3♠" in English, "le 3♠" / "l'A♦" in French.
function theCard(code) {
  const bare = (code || "").split("=")[0];
  const shown = bare === "JK" ? t("card.joker") : prettyCard(bare);
  if (lang !== "fr") return shown;
  return bare[0] === "A" ? `l'${shown}` : `le ${shown}`;
}

function theCards(codes) {
  return codes.map((code) => prettyCard(code.split("=")[0])).join(" ");
}

// The move as done, without its subject: "played 3♠", "joué le 3♠" (the sentence around it says who).
export function doneText(action) {
  const [verb, ...rest] = String(action || "").split(" ");
  const words = {
    play: () => t("done.play", { card: theCard(rest[0]) }),
    exchange: () => t("done.exchange"),
    keep: () => t("done.keep"),
    bid: () => t("done.bid", { n: Number(rest[0]) }),
    pass: () => t("done.pass"),
    trump: () => t("done.trump", { suit: rest[0] === "NT" ? t("suitOne.NT") : suitSymbol(rest[0]) }),
    draw: () => t(rest[0] === "stock" ? "done.drawStock" : "done.drawDiscard"),
    lay: () => t("done.lay", { cards: theCards(rest) }),
    extend: () => t("done.extend", { card: theCard(rest[1]) }),
    swap: () => t("done.swap", { card: theCard(rest[1]) }),
    discard: () => t("done.discard", { card: theCard(rest[0]) }),
  }[verb];
  return words ? words() : t("done.other");
}

// "East played 2♣" / "Ouest a joué l'A♦": a seat (or "you") and its move.
export function someoneDid(name, action, { you = false } = {}) {
  return t(you ? "done.byYou" : "done.by", { name, what: doneText(action) });
}
