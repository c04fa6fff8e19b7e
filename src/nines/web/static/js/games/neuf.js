// Le Neuf at the table: the spare hand and the exchange, thirteen tricks, the quota, seed 000's score sheet.

import { h } from "../dom.js";
import { seatName, t } from "../i18n.js";
import { backsFan, cardEl } from "../cards.js";
import {
  handRow, hiddenHand, lastTrickBox, positions, recordedTrickWinner, seatPlate, suitBadge, trickArea, trickDealLabel, trickList,
} from "./tricks.js";

const ORDER = "23456789TJQKA"; // ace high
const SUIT_ORDER = "SHDC";

function sortCards(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]));
}

function sideOf(view, seat) {
  return view.sides.includes(seat) ? seat : view.sides.find((side) => side.includes(seat)) || seat;
}

function tricksOfSide(view, side) {
  return view.seats.filter((s) => sideOf(view, s) === side).reduce((n, s) => n + (view.tricks_won[s] || 0), 0);
}

function decisionText(decision) {
  return decision === "exchange" ? t("summary.exchanged") : t("summary.kept");
}

function centrePile(ctx) {
  const view = ctx.view;
  if (view.form !== "three") return null;
  const exchanging = view.phase === "exchange";
  const mine = exchanging && ctx.view.legal.includes("exchange");
  const caption = exchanging
    ? (view.centre_from === "spare" || !view.centre_from ? t("neuf.centreSpare") : (view.centre_from === ctx.you ? t("neuf.centreFromYou") : t("neuf.centreFrom", { name: ctx.seatLabel(view.centre_from) })))
    : t("neuf.setAside");
  const pile = h(mine ? "button" : "div", {
    class: `spare-pile${exchanging ? " centre" : " aside"}${mine ? " legal" : ""}`,
    type: mine ? "button" : null,
    "aria-label": mine ? `${t("neuf.exchange")} — ${caption}` : caption,
    onclick: mine ? () => ctx.act("exchange") : null,
  }, ctx.replay && ctx.hands && ctx.hands.centre
    ? ctx.hands.centre.map((code) => cardEl(code, { small: true })) // the replay shows what was hidden
    : backsFan(13, { max: 13 }));
  return h("div", { class: "spare" }, h("span", { class: "spare-title" }, t("neuf.spare")), pile, h("span", { class: "spare-caption" }, caption));
}

function plateFor(ctx, seat) {
  const view = ctx.view;
  const tags = [];
  if (view.exchanges[seat]) tags.push(decisionText(view.exchanges[seat]));
  const tricks = view.phase === "exchange" ? null : t("neuf.tricksOf", { n: view.tricks_won[seat] || 0, quota: view.form === "partners" ? "–" : view.quota });
  return seatPlate(ctx, seat, { tags, tricks: view.form === "partners" ? `${view.tricks_won[seat] || 0}` : tricks });
}

function render(ctx) {
  const view = ctx.view;
  const pos = positions(view.seats, ctx.you);
  const felt = h("div", { class: `felt trick-felt seats-${view.seats.length}` });
  for (const seat of view.seats) {
    const where = pos[seat];
    if (where === "bottom") continue;
    felt.append(h("div", { class: `area pos-${where}` }, plateFor(ctx, seat), hiddenHand(ctx, seat, view.hand_sizes[seat])));
  }
  const spare = centrePile(ctx);
  if (spare) felt.append(h("div", { class: "area pos-top" }, spare));
  felt.append(h("div", { class: "area pos-centre" }, trickArea(ctx, pos)));
  const bottomSeat = Object.keys(pos).find((s) => pos[s] === "bottom");
  const bottom = h("div", { class: "area pos-bottom" }, plateFor(ctx, bottomSeat));
  if (ctx.you) bottom.append(handRow(ctx, view.hand));
  else bottom.append(hiddenHand(ctx, bottomSeat, view.hand_sizes[bottomSeat]));
  felt.append(bottom);
  return { felt, side: side(ctx), actions: actions(ctx) };
}

function actions(ctx) {
  const view = ctx.view;
  if (view.phase !== "exchange" || !view.legal.length) return null;
  return h("div", { class: "choice-row" },
    h("p", { class: "prompt" }, t("neuf.exchangeQ")),
    h("button", { type: "button", class: "button primary", "data-action": "exchange", onclick: () => ctx.act("exchange") }, t("neuf.exchange"), h("kbd", {}, "E")),
    h("button", { type: "button", class: "button", "data-action": "keep", onclick: () => ctx.act("keep") }, t("neuf.keep"), h("kbd", {}, "K")));
}

function side(ctx) {
  const view = ctx.view;
  const box = h("div", { class: "side-game" });
  box.append(h("div", { class: "trump-box" },
    h("span", { class: "label" }, t("table.trump")),
    suitBadge(view.trump),
    h("span", { class: "trump-name" }, t(`suitOne.${view.trump}`)),
    h("span", { class: "deal-no" }, t("table.deal", { n: view.deal_number }))));
  const rows = view.sides.map((side) => {
    const tricks = tricksOfSide(view, side);
    const label = view.sides.length === view.seats.length ? ctx.seatLabel(side) : seatName(side);
    return h("tr", { class: view.seats.includes(ctx.you) && sideOf(view, ctx.you) === side ? "mine" : "" },
      h("th", { scope: "row" }, label),
      h("td", {}, view.phase === "exchange" ? "–" : t("neuf.tricksOf", { n: tricks, quota: view.quota })),
      h("td", { class: "score" }, String(view.scores[side])));
  });
  box.append(h("table", { class: "mini-scores" },
    h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t("table.tricks")), h("th", { scope: "col" }, t("table.score")))),
    h("tbody", {}, rows)));
  if (view.remembered) {
    const r = view.remembered;
    const where = r.now_with === "centre" ? t("neuf.whereCentre") : r.now_with === "set-aside" ? t("neuf.whereAside") : t("neuf.whereWith", { name: ctx.seatLabel(r.now_with) });
    box.append(h("div", { class: "remembered" },
      h("span", { class: "label" }, t("neuf.remembered", { where })),
      h("div", { class: "hand small-cards" }, r.cards.map((code) => cardEl(code, { small: true, className: r.unplayed.includes(code) ? "" : "gone" })))));
  }
  return box;
}

// Seed 000's sheet: the trump of each deal, the running scores, the total falling by one a deal.
function sheet(ctx) {
  const view = ctx.view;
  const table = h("table", { class: "sheet neuf-sheet" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("table.trump")),
      view.sides.map((side) => h("th", { scope: "col" }, view.sides.length === view.seats.length ? ctx.seatLabel(side) : seatName(side))),
      h("th", { scope: "col" }, t("table.total")))),
    h("tbody", {}, view.score_sheet.map((row) => h("tr", {},
      h("td", {}, row.deal === 0 ? t("table.start") : String(row.deal)),
      h("td", {}, row.trump ? suitBadge(row.trump) : ""),
      view.sides.map((side) => h("td", { class: row.scores[side] <= 0 ? "zero" : "" }, String(row.scores[side]))),
      h("td", { class: "total" }, String(row.total))))));
  return h("div", {}, h("div", { class: "table-scroll" }, table), h("p", { class: "muted small" }, t("neuf.falling")));
}

// The hands as they were played: the exchange moves whole hands between the seats and the centre.
function handsAsPlayed(deal) {
  const hands = {};
  for (const [seat, cards] of Object.entries(deal.hands)) hands[seat] = [...cards];
  let centre = hands.spare ? [...hands.spare] : [];
  let centreFrom = "spare";
  const took = {};
  for (const action of deal.actions) {
    if (action.action === "exchange") {
      const own = hands[action.seat];
      hands[action.seat] = centre;
      took[action.seat] = centreFrom;
      centre = own;
      centreFrom = action.seat;
    }
  }
  return { hands, setAside: deal.result && deal.result.set_aside ? deal.result.set_aside : centre, took };
}

function summary(deal, ctx) {
  const view = ctx.view;
  const { hands, setAside, took } = handsAsPlayed(deal);
  const seats = view.seats;
  const decisions = deal.actions.filter((a) => a.action === "exchange" || a.action === "keep");
  const tricks = (deal.tricks || []).map((trick) => ({
    plays: trick.cards, winner: recordedTrickWinner(trick, deal.trump, ORDER),
  }));
  const result = deal.result || {};
  const quota = view.quota;
  return h("div", { class: "summary" },
    h("p", { class: "summary-head" }, t("table.deal", { n: deal.number }), " · ", t("table.trump"), " ", suitBadge(deal.trump || "NT"), " · ", t("table.dealer"), ": ", ctx.seatLabel(deal.dealer)),
    decisions.length ? h("ul", { class: "decisions" }, decisions.map((a) => h("li", {},
      t("neuf.decided", {
        name: ctx.seatLabel(a.seat),
        what: a.action === "exchange"
          ? t("summary.took", { what: took[a.seat] === "spare" ? t("summary.theSpare") : (took[a.seat] === ctx.you ? t("summary.handOfYou") : t("summary.handOf", { name: ctx.seatLabel(took[a.seat]) })) })
          : t("summary.kept"),
      })))) : null,
    // the outcome first: on a phone the hands and the tricks fill three screens before it
    h("h3", {}, t("summary.change")),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("td", {}), view.sides.map((side) => h("th", { scope: "col" }, view.sides.length === seats.length ? ctx.seatLabel(side) : seatName(side))))),
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, t("table.tricks")), view.sides.map((side) => h("td", {}, String((result.side_tricks || {})[side] ?? "")))),
        h("tr", {}, h("th", { scope: "row" }, t("summary.change")), view.sides.map((side) => {
          const change = (result.score_change || {})[side] ?? 0;
          return h("td", { class: change < 0 ? "good" : change > 0 ? "bad" : "" }, change > 0 ? `+${change}` : String(change));
        })),
        h("tr", {}, h("th", { scope: "row" }, t("table.score")), view.sides.map((side) => h("td", {}, String((deal.scores || {})[side] ?? "")))))),
    h("h3", {}, t("summary.hands")),
    h("div", { class: "summary-hands" },
      seats.map((seat) => h("div", { class: "summary-hand" },
        h("span", { class: "label" }, ctx.seatLabel(seat), " — ", t("neuf.tricksOf", { n: (result.tricks || {})[seat] ?? 0, quota })),
        h("div", { class: "hand small-cards" }, sortCards(hands[seat] || []).map((c) => cardEl(c, { small: true }))))),
      view.form === "three" ? h("div", { class: "summary-hand aside" },
        h("span", { class: "label" }, t("summary.setAside")),
        h("div", { class: "hand small-cards" }, sortCards(setAside || []).map((c) => cardEl(c, { small: true })))) : null),
    h("h3", {}, t("summary.tricks")),
    trickList(ctx, tricks));
}

function onKey(ctx, event) {
  const key = event.key.toLowerCase();
  if (key === "e" && ctx.view.legal.includes("exchange")) { ctx.act("exchange"); return true; }
  if (key === "k" && ctx.view.legal.includes("keep")) { ctx.act("keep"); return true; }
  return false;
}

function prompt(ctx) {
  return ctx.view.phase === "exchange" ? t("neuf.exchangeQ") : t("table.playCard");
}

export default {
  id: "neuf",
  turnText: (ctx, name) => (ctx.view.phase === "exchange" ? t("neuf.deciding", { name }) : null),
  render,
  sheet,
  summary,
  previousDeal: (view) => view.previous_deal,
  lastTrick: lastTrickBox,
  hasTricks: true,
  onKey,
  prompt,
  dealLabel: trickDealLabel,
  commandExample: "play 9H",
  keyHelp: () => [["E", t("neuf.keyExchange")], ["K", t("neuf.keyKeep")]],
};
