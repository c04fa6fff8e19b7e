// Pieces shared by the two trick-taking games: seats around the felt, the trick, the hand, sheets of tricks.

import { h } from "../dom.js";
import { seatName, t } from "../i18n.js";
import { backsFan, cardEl, prettyCard, suitSymbol } from "../cards.js";

const LAYOUTS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

// Where each seat sits on the felt, seen from `me` (or from the first seat for a spectator).
// Play goes clockwise, so the next seat after mine sits on my left.
export function positions(seats, me) {
  const start = Math.max(0, seats.indexOf(me));
  const layout = LAYOUTS[seats.length] || LAYOUTS[4];
  const out = {};
  seats.forEach((_, i) => {
    const seat = seats[(start + i) % seats.length];
    out[seat] = layout[i] || "top";
  });
  return out;
}

export function actingSeat(view) {
  return view.acting_seat ?? view.to_act;
}

// The name plate of a seat: who sits there, whose turn it is, what they have taken.
export function seatPlate(ctx, seat, { tags = [], tricks = null } = {}) {
  const view = ctx.view;
  const info = ctx.seatInfo(seat);
  const acting = view.to_act === seat && view.phase !== "over";
  const away = info && info.kind === "human" && !info.connected && seat !== ctx.you;
  return h("div", { class: `plate${acting ? " acting" : ""}${seat === ctx.you ? " mine" : ""}`, "data-seat": seat },
    h("span", { class: "plate-name" }, ctx.seatLabel(seat)),
    // the seat's name only when the plate does not already say it (a computer player is named by its seat)
    ctx.seatLabel(seat) === seatName(seat) ? null : h("span", { class: "plate-seat" }, seatName(seat)),
    view.dealer === seat ? h("span", { class: "chip dealer", title: t("seat.dealer") }, "D") : null,
    tags.map((tag) => h("span", { class: "chip" }, tag)),
    away ? h("span", { class: "chip away" }, t("seat.away")) : null,
    tricks !== null ? h("span", { class: "plate-tricks", title: t("table.tricks") }, tricks) : null,
    acting ? h("span", { class: "sr-only" }, t("seat.toAct")) : null);
}

// The cards of the trick in front of each player; a finished trick stays (faded) until the next lead.
export function trickArea(ctx, pos) {
  const view = ctx.view;
  const area = h("div", { class: "trick", role: "group", "aria-label": t("table.trick") });
  let trick = view.trick;
  let finished = false;
  if ((!trick || !trick.plays.length) && view.last_trick && view.phase === "play") {
    trick = view.last_trick;
    finished = true;
  }
  if (!trick) return area;
  const newest = ctx.last && ctx.last.action.startsWith("play ") ? ctx.last.action.slice(5) : null;
  for (const [seat, code] of trick.plays) {
    const fresh = !finished && code === newest;
    const won = finished && trick.winner === seat;
    // a finished trick stays until the next lead, its winning card marked with who took it
    const card = cardEl(code, { tag: won ? t("table.wonBy", { name: ctx.seatLabel(seat) }) : null });
    const wrap = h("div", { class: `trick-slot slot-${pos[seat]}${fresh ? ` fly-${pos[seat]}` : ""}${won ? " winner" : ""}` }, card);
    area.append(wrap);
  }
  if (finished) area.classList.add("finished");
  return area;
}

// My hand: every card is a button, so the keyboard stays in the hand between turns. Cards the rules allow now
// are marked legal; the others carry aria-disabled, and a click on one asks the server, whose refusal says
// the rule's reason (or whose turn it is) in the player's language.
export function handRow(ctx, cards, { playable = true, seat = ctx.you, label, className = "" } = {}) {
  const legal = new Set(ctx.view.legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  // the cards of this hand are played now by me: my own turn, or the dummy's when I declare
  const myTurn = playable && legal.size > 0 && ctx.view.to_act === seat && ctx.controls(seat);
  // my own hand, or the dummy's once I declare: cards I may one day play from here
  const mine = playable && !ctx.replay && ctx.you !== null && (seat === ctx.you || ctx.controls(seat) || ctx.view.declarer === ctx.you);
  const hinted = ctx.hint && ctx.hint.action.startsWith("play ") ? ctx.hint.action.slice(5) : null;
  const row = h("div", {
    class: `hand ${className}${myTurn ? " controlled" : ""}`, role: "group", "aria-label": label || t("table.yourHand", { n: cards.length }), "data-seat": seat,
  });
  cards.forEach((code, index) => {
    if (!mine) {
      row.append(cardEl(code, { className: code === hinted ? "hinted" : "" }));
      return;
    }
    const ok = myTurn && legal.has(code);
    const el = cardEl(code, {
      legal: myTurn ? ok : undefined,
      disabled: !ok,
      className: [code === hinted ? "hinted" : "", myTurn ? "" : "waiting"].join(" ").trim(),
      onclick: () => ctx.act(`play ${code}`),
    });
    el.dataset.index = String(index);
    row.append(el);
  });
  return row;
}

// Face-down cards for a hand nobody may see, or its cards face up in a replay.
export function hiddenHand(ctx, seat, count) {
  if (ctx.hands && ctx.hands[seat]) {
    return h("div", { class: "hand open small-cards" }, ctx.hands[seat].map((code) => cardEl(code, { small: true })));
  }
  return backsFan(count);
}

// A list of tricks (for the last-trick window and the deal summary).
export function trickList(ctx, tricks) {
  return h("ol", { class: "trick-list" }, tricks.map((trick, i) => {
    const plays = trick.plays || trick.cards || [];
    const winner = trick.winner;
    return h("li", {},
      h("span", { class: "trick-no" }, String(i + 1)),
      h("span", { class: "trick-cards" }, plays.map(([seat, code]) =>
        h("span", { class: `trick-card${seat === winner ? " winner" : ""}`, title: seatName(seat) },
          h("span", { class: "who" }, seat), " ", h("span", { class: `pretty ${redClass(code)}` }, prettyCard(code))))));
  }));
}

export function redClass(code) {
  return code && (code[1] === "H" || code[1] === "D") ? "red" : "black";
}

export function suitBadge(trump) {
  if (!trump) return h("span", { class: "suit-badge" }, "–");
  return h("span", { class: `suit-badge ${trump === "H" || trump === "D" ? "red" : ""} ${trump === "NT" ? "nt" : ""}`, title: t(`suitOne.${trump}`) },
    trump === "NT" ? "NT" : suitSymbol(trump));
}

// The status pill's label: the deal's number and, once it is known, its trump. On a phone the side panel that
// names the trump lies below the table, out of sight while playing, and a trick cannot be read without it.
export function trickDealLabel(view) {
  const deal = t("table.deal", { n: view.deal_number });
  if (!view.trump) return deal;
  return `${deal} · ${view.trump === "NT" ? t("suitOne.NT") : `${t("table.trump")} ${suitSymbol(view.trump)}`}`;
}

export function lastTrickBox(ctx) {
  const last = ctx.view.last_trick;
  if (!last) return h("p", {}, t("table.noLastTrick"));
  const pos = positions(ctx.view.seats, ctx.you);
  const area = h("div", { class: "trick finished standalone" });
  for (const [seat, code] of last.plays) {
    const wrap = h("div", { class: `trick-slot slot-${pos[seat]}` }, cardEl(code));
    if (last.winner === seat) wrap.classList.add("winner");
    area.append(wrap);
  }
  return h("div", { class: "last-trick" }, area,
    h("p", { class: "trick-caption" }, t("summary.leader", { name: ctx.seatLabel(last.leader) }), " · ", t("table.wonBy", { name: ctx.seatLabel(last.winner) })));
}

// Winner of a recorded trick ({leader, cards: [[seat, code]...]}) given trump and rank order.
export function recordedTrickWinner(trick, trump, order) {
  const plays = trick.cards || trick.plays || [];
  if (!plays.length) return null;
  let best = plays[0];
  for (const play of plays.slice(1)) {
    const [, code] = play;
    const [, top] = best;
    if (code[1] === top[1]) {
      if (order.indexOf(code[0]) > order.indexOf(top[0])) best = play;
    } else if (code[1] === trump && top[1] !== trump) {
      best = play;
    }
  }
  return best[0];
}
