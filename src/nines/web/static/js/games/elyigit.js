// Elyigit's Nines at the table: the auction, trumps named by the declarer, the dummy face up, compulsory overtaking.

import { h } from "../dom.js";
import { seatName, t } from "../i18n.js";
import { cardEl, suitSymbol } from "../cards.js";
import {
  handRow, hiddenHand, lastTrickBox, positions, recordedTrickWinner, seatPlate, suitBadge, trickArea, trickDealLabel, trickList,
} from "./tricks.js";

const ORDER = "A23456789"; // ace low, nine high
const SUIT_ORDER = "SHDC";

const sideOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");

function sortCards(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]));
}

function callText(call) {
  return call === "pass" ? t("ely.pass") : call.replace(/^bid /, "");
}

function contractText(ctx, contract) {
  if (!contract) return "–";
  const trump = contract.trump ? ` ${suitSymbol(contract.trump)}` : "";
  return `${contract.bid}${trump} · ${ctx.seatLabel(contract.declarer)}`;
}

function auctionTable(ctx, calls) {
  const seats = ctx.view.seats;
  const rows = [];
  let row = null;
  let lastColumn = 99;
  for (const [seat, call] of calls) {
    const column = seats.indexOf(seat);
    if (!row || column <= lastColumn) { row = Array(seats.length).fill(null); rows.push(row); }
    row[column] = call;
    lastColumn = column;
  }
  return h("div", { class: "auction" },
    h("div", { class: "auction-title" }, t("ely.auction")),
    h("table", {},
      h("thead", {}, h("tr", {}, seats.map((s) => h("th", { scope: "col" },
        h("span", { class: "long" }, seatName(s)), h("abbr", { class: "short", title: seatName(s) }, seatName(s).slice(0, 1)))))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((call) => h("td", { class: call === null ? "" : call === "pass" ? "call-pass" : "call-bid" }, call === null ? "" : callText(call))))))));
}

function plateFor(ctx, seat) {
  const view = ctx.view;
  const tags = [];
  if (view.declarer === seat) tags.push(t("ely.declarer"));
  if (view.dummy === seat) tags.push(t("ely.dummy"));
  const tricks = view.phase === "play" || view.tricks_played.length ? String(view.tricks_won[seat] || 0) : null;
  return seatPlate(ctx, seat, { tags, tricks });
}

function seatHand(ctx, seat) {
  const view = ctx.view;
  if (view.dummy === seat && view.dummy_hand) {
    return handRow(ctx, view.dummy_hand, { seat, className: "dummy-hand", label: `${t("ely.dummy")} — ${seatName(seat)}` });
  }
  return hiddenHand(ctx, seat, view.hand_sizes[seat]);
}

function render(ctx) {
  const view = ctx.view;
  const pos = positions(view.seats, ctx.you);
  const felt = h("div", { class: "felt trick-felt seats-4" });
  for (const seat of view.seats) {
    const where = pos[seat];
    if (where === "bottom") continue;
    felt.append(h("div", { class: `area pos-${where}` }, plateFor(ctx, seat), seatHand(ctx, seat)));
  }
  let centre;
  if (view.phase === "auction" || view.phase === "trump") {
    centre = h("div", { class: "auction-centre" }, auctionTable(ctx, view.auction),
      view.phase === "trump" ? h("p", { class: "contract-box" }, t("ely.contract"), ": ", t("ely.contractOf", { bid: view.contract, name: ctx.seatLabel(view.declarer) })) : null);
  } else {
    centre = trickArea(ctx, pos);
  }
  felt.append(h("div", { class: "area pos-centre" }, centre));
  const bottomSeat = Object.keys(pos).find((s) => pos[s] === "bottom");
  const bottom = h("div", { class: "area pos-bottom" }, plateFor(ctx, bottomSeat));
  if (ctx.you) bottom.append(handRow(ctx, view.hand));
  else bottom.append(seatHand(ctx, bottomSeat));
  felt.append(bottom);
  return { felt, side: side(ctx), actions: actions(ctx) };
}

function actions(ctx) {
  const view = ctx.view;
  if (!view.legal.length) return null;
  if (view.phase === "auction") {
    const bids = view.legal.filter((a) => a.startsWith("bid "));
    return h("div", { class: "choice-row bid-row" },
      h("p", { class: "prompt" }, t("ely.yourBid"), " ",
        view.high_bid ? t("ely.standing", { bid: view.high_bid, name: ctx.seatLabel(view.high_bidder) }) : t("ely.noBid")),
      bids.map((a) => h("button", { type: "button", class: "button bid", "data-action": a, onclick: () => ctx.act(a), "aria-label": t("ely.bid", { n: a.slice(4) }) }, a.slice(4))),
      view.legal.includes("pass") ? h("button", { type: "button", class: "button quiet", "data-action": "pass", onclick: () => ctx.act("pass") }, t("ely.pass"), h("kbd", {}, "P")) : null);
  }
  if (view.phase === "trump") {
    return h("div", { class: "choice-row" },
      h("p", { class: "prompt" }, t("ely.chooseTrump")),
      view.legal.map((a) => {
        const suit = a.slice(6);
        return h("button", {
          type: "button", class: `button suit-button${suit === "H" || suit === "D" ? " red" : ""}`, "data-action": a,
          onclick: () => ctx.act(a), "aria-label": t(`suitOne.${suit}`), title: t(`suitOne.${suit}`),
        }, suitSymbol(suit));
      }));
  }
  if (view.to_act !== ctx.you && view.to_act === view.dummy) {
    return h("p", { class: "prompt" }, t("ely.playFor", { name: seatName(view.dummy) }));
  }
  return null;
}

function side(ctx) {
  const view = ctx.view;
  const box = h("div", { class: "side-game", "data-high-bid": view.high_bid ?? "" });
  box.append(h("div", { class: "trump-box" },
    h("span", { class: "label" }, t("table.trump")),
    suitBadge(view.trump),
    h("span", { class: "trump-name" }, view.trump ? t(`suitOne.${view.trump}`) : "–"),
    h("span", { class: "deal-no" }, t("table.deal", { n: view.deal_number }))));
  if (view.contract) {
    box.append(h("p", { class: "contract-line" }, h("span", { class: "label" }, t("ely.contract")), h("br"),
      h("strong", {}, t("ely.contractOf", { bid: view.contract, name: ctx.seatLabel(view.declarer) }))));
  } else if (view.high_bid) {
    box.append(h("p", {}, t("ely.standing", { bid: view.high_bid, name: ctx.seatLabel(view.high_bidder) })));
  }
  box.append(h("table", { class: "side-scores" },
    h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t("table.tricks")), h("th", { scope: "col" }, t("table.score")))),
    h("tbody", {}, view.sides.map((side) => h("tr", { class: ctx.you && sideOf(ctx.you) === side ? "mine" : "" },
      h("th", { scope: "row" }, seatName(side)),
      h("td", {}, view.targets ? `${view.side_tricks[side]} / ${view.targets[side]}` : String(view.side_tricks[side] ?? 0)),
      h("td", { class: "score" }, String(view.scores[side])))))));
  box.append(h("p", { class: "muted small" }, t("ely.target", { n: view.target })));
  return box;
}

function sheet(ctx) {
  const view = ctx.view;
  return h("div", { class: "table-scroll" }, h("table", { class: "sheet ely-sheet" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("ely.contract")), h("th", { scope: "col" }, t("table.tricks")),
      h("th", { scope: "col" }, ""), view.sides.map((side) => h("th", { scope: "col" }, seatName(side))))),
    h("tbody", {},
      h("tr", {}, h("td", {}, t("table.start")), h("td", {}), h("td", {}), h("td", {}), view.sides.map(() => h("td", {}, "0"))),
      view.score_sheet.map((row) => h("tr", {},
        h("td", {}, String(row.deal)),
        h("td", {}, row.contract ? contractText(ctx, row.contract) : t("ely.thrownIn")),
        h("td", {}, row.tricks ? view.sides.map((s) => row.tricks[s]).join("–") : ""),
        h("td", { class: row.made ? "good" : row.contract ? "bad" : "" }, row.contract ? (row.made ? t("ely.made") : t("ely.down")) : ""),
        view.sides.map((side) => h("td", {}, `${row.scores[side]}`, row.score_change[side] ? h("small", { class: "muted" }, ` (+${row.score_change[side]})`) : null)))))));
}

function summary(deal, ctx) {
  const view = ctx.view;
  const result = deal.result || {};
  const contract = deal.contract;
  const trump = contract ? contract.trump : null;
  const tricks = (deal.tricks || []).map((trick) => ({ plays: trick.cards, winner: recordedTrickWinner(trick, trump, ORDER) }));
  const played = {};
  for (const trick of deal.tricks || []) for (const [seat, code] of trick.cards) (played[seat] = played[seat] || []).push(code);
  return h("div", { class: "summary" },
    h("p", { class: "summary-head" }, t("table.deal", { n: deal.number }), " · ",
      contract ? [t("ely.contract"), ": ", contractText(ctx, contract), " · ", result.made ? t("ely.made") : t("ely.down")] : t("ely.thrownIn")),
    // the outcome first: on a phone the hands and the tricks fill screens before it
    h("h3", {}, t("summary.change")),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("td", {}), view.sides.map((side) => h("th", { scope: "col" }, seatName(side))))),
      h("tbody", {},
        result.tricks ? h("tr", {}, h("th", { scope: "row" }, t("table.tricks")), view.sides.map((side) => h("td", {}, String(result.tricks[side])))) : null,
        h("tr", {}, h("th", { scope: "row" }, t("summary.change")), view.sides.map((side) => {
          const change = (result.score_change || {})[side] || 0;
          return h("td", { class: change > 0 ? "good" : "" }, change > 0 ? `+${change}` : "0");
        })),
        h("tr", {}, h("th", { scope: "row" }, t("table.score")), view.sides.map((side) => h("td", {}, String((deal.scores || {})[side] ?? "")))))),
    h("h3", {}, t("ely.auction")),
    auctionTableStatic(ctx, deal.auction || []),
    tricks.length ? [
      h("h3", {}, t("summary.hands")),
      h("div", { class: "summary-hands" }, view.seats.map((seat) => h("div", { class: "summary-hand" },
        h("span", { class: "label" }, ctx.seatLabel(seat), contract && contract.dummy === seat ? ` (${t("ely.dummy")})` : ""),
        h("div", { class: "hand small-cards" }, sortCards(played[seat] || []).map((c) => cardEl(c, { small: true })))))),
      h("h3", {}, t("summary.tricks")),
      trickList(ctx, tricks)] : null);
}

function auctionTableStatic(ctx, calls) {
  return h("p", { class: "auction-line" }, calls.map(([seat, call], i) => [i ? " · " : "", h("span", { class: call === "pass" ? "muted" : "" }, `${seat} ${callText(call)}`)]));
}

function onKey(ctx, event) {
  const view = ctx.view;
  if (!view.legal.length) return false;
  const key = event.key.toLowerCase();
  if (view.phase === "auction") {
    if (/^[0-9]$/.test(key) && view.legal.includes(`bid ${key}`)) { ctx.act(`bid ${key}`); return true; }
    if (key === "p" && view.legal.includes("pass")) { ctx.act("pass"); return true; }
  }
  if (view.phase === "trump") {
    const suit = { s: "S", h: "H", d: "D", c: "C", n: "NT" }[key];
    if (suit && view.legal.includes(`trump ${suit}`)) { ctx.act(`trump ${suit}`); return true; }
  }
  return false;
}

function prompt(ctx) {
  const view = ctx.view;
  if (view.phase === "auction") return t("ely.yourBid");
  if (view.phase === "trump") return t("ely.chooseTrump");
  if (view.to_act === view.dummy && view.to_act !== ctx.you) return t("ely.playFor", { name: seatName(view.dummy) });
  return t("table.playCard");
}


export default {
  id: "elyigit",
  turnText: (ctx, name) => {
    const view = ctx.view;
    if (view.phase === "auction") return t("ely.bidding", { name });
    if (view.phase === "trump") return t("ely.naming", { name });
    if (view.to_act === view.dummy) return t("ely.playingDummy", { name });
    return null;
  },
  render,
  sheet,
  summary,
  previousDeal: (view) => view.previous_deal,
  lastTrick: lastTrickBox,
  hasTricks: true,
  onKey,
  prompt,
  dealLabel: trickDealLabel,
  commandExample: "bid 6",
  keyHelp: () => [["5–9", t("ely.keyBid")], ["P", t("ely.keyPass")], ["S H D C N", t("ely.keyTrump")]],
};
