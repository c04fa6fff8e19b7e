// Playing cards drawn as SVG: faces built from the card code (9H, TS, JK), a patterned back.

import { h, s } from "./dom.js";
import { cardName, lang, t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

// The faces a player reads: French cards are R (roi), D (dame), V (valet). Typed moves keep the English
// letters of the notation (KH, QS, JD, T for ten) in every language; the help says so.
const FACE_LETTERS = { fr: { K: "R", Q: "D", J: "V" } };

export function rankText(rank) {
  if (rank === "T") return "10";
  return (FACE_LETTERS[lang] || {})[rank] || rank;
}

export function prettyCard(code) {
  if (!code) return "";
  if (code === "JK") return "🃏";
  return rankText(code[0]) + SUIT_SYMBOL[code[1]];
}

export function suitSymbol(suit) {
  return suit === "NT" ? "NT" : SUIT_SYMBOL[suit] || suit;
}

// The pip layout of number cards, in a 60 x 84 box (x, y, upside-down?).
const PIPS = {
  A: [[30, 42]],
  2: [[30, 22], [30, 62, 1]],
  3: [[30, 20], [30, 42], [30, 64, 1]],
  4: [[20, 22], [40, 22], [20, 62, 1], [40, 62, 1]],
  5: [[20, 22], [40, 22], [30, 42], [20, 62, 1], [40, 62, 1]],
  6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  7: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  8: [[20, 20], [40, 20], [30, 30], [20, 40], [40, 40], [30, 52, 1], [20, 63, 1], [40, 63, 1]],
  9: [[20, 19], [40, 19], [20, 33], [40, 33], [30, 42], [20, 51, 1], [40, 51, 1], [20, 65, 1], [40, 65, 1]],
  T: [[20, 19], [40, 19], [30, 27], [20, 34], [40, 34], [20, 50, 1], [40, 50, 1], [30, 57, 1], [20, 65, 1], [40, 65, 1]],
};

function face(code) {
  const svg = s("svg", { viewBox: "0 0 60 84", class: "card-face", "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: "card-paper" }));
  if (code === "JK") {
    svg.append(
      s("text", { x: 6, y: 14, class: "idx joker", text: "★" }),
      s("text", { x: 30, y: 50, class: "joker-star", "text-anchor": "middle", text: "★" }),
      s("text", { x: 30, y: 72, class: "joker-word", "text-anchor": "middle", text: "JOKER" }),
    );
    return svg;
  }
  const rank = code[0];
  const suit = code[1];
  const symbol = SUIT_SYMBOL[suit];
  svg.classList.add(RED.has(suit) ? "red" : "black");
  const corner = (transform) => s("g", { transform },
    s("text", { x: 7, y: 15, class: "idx", "text-anchor": "middle", text: rankText(rank) }),
    s("text", { x: 7, y: 26, class: "idx-suit", "text-anchor": "middle", text: symbol }));
  svg.append(corner(""), corner("rotate(180 30 42)"));
  if (PIPS[rank]) {
    const big = rank === "A";
    for (const [x, y, flip] of PIPS[rank]) {
      svg.append(s("text", {
        x, y: y + (big ? 9 : 4), class: big ? "pip ace" : "pip", "text-anchor": "middle",
        transform: flip ? `rotate(180 ${x} ${y})` : null, text: symbol,
      }));
    }
  } else {
    // court cards: a framed panel with the letter and the suit
    svg.append(
      s("rect", { x: 13, y: 13, width: 34, height: 58, rx: 3, class: "court-frame" }),
      s("text", { x: 30, y: 44, class: "court", "text-anchor": "middle", text: rankText(rank) }),
      s("text", { x: 30, y: 62, class: "court-suit", "text-anchor": "middle", text: symbol }),
    );
  }
  return svg;
}

// A card as an element: a button when it can be clicked (onclick given), a span otherwise.
export function cardEl(code, { onclick, legal, selected, className = "", label, small, tag, disabled } = {}) {
  const attrs = {
    class: ["card", className, legal ? "legal" : "", legal === false ? "illegal" : "", selected ? "selected" : "", small ? "small" : ""]
      .filter(Boolean).join(" "),
    dataset: { code },
    "aria-label": label || cardName(code),
  };
  let el;
  if (onclick) {
    el = h("button", { ...attrs, type: "button", onclick, "aria-pressed": selected === undefined ? null : String(!!selected), "aria-disabled": disabled ? "true" : null });
  } else {
    el = h("span", { ...attrs, role: "img" });
  }
  el.append(face(code));
  if (tag) el.append(h("span", { class: "card-tag" }, tag));
  return el;
}

export function backEl({ small, label } = {}) {
  return h("span", { class: `card back${small ? " small" : ""}`, role: "img", "aria-label": label || t("card.back") });
}

// A fan of face-down cards showing how many a hand holds.
export function backsFan(count, { max = 13 } = {}) {
  const fan = h("span", { class: "backs", role: "img", "aria-label": t("cards.count", { n: count }) });
  for (let i = 0; i < Math.min(count, max); i++) fan.append(h("span", { class: "card back mini", "aria-hidden": "true" }));
  fan.append(h("span", { class: "backs-count" }, String(count)));
  return fan;
}
