// Nines rummy at the table: the indicator and its wild rank, stock and discard pile, runs and monkeys on the table.
//
// Gestures: click the stock or the discard pile to draw; select cards in your hand, then lay them, click a set
// to extend it (or to swap a natural card for its wild), or click the discard pile to discard.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { backEl, backsFan, cardEl, prettyCard, rankText } from "../cards.js";
import { seatPlate } from "./tricks.js";

// The selection survives redraws of the same hand (by position in the sorted hand).
let selection = { key: "", picked: new Set() };

function handKey(view) {
  return `${view.deal_number}:${view.hand.join(",")}`;
}

function selected(view) {
  if (selection.key !== handKey(view)) selection = { key: handKey(view), picked: new Set() };
  return [...selection.picked].sort((a, b) => a - b).map((i) => view.hand[i]).filter(Boolean);
}

const cardOf = (token) => token.split("=")[0];

function parse(action) {
  const words = action.split(" ");
  const verb = words[0];
  if (verb === "lay") return { verb, cards: words.slice(1).map(cardOf) };
  if (verb === "extend") return { verb, set: words[1], cards: [cardOf(words[2])], as: words[2] };
  if (verb === "swap") return { verb, set: words[1], cards: [words[2]] };
  if (verb === "discard") return { verb, cards: [words[1]] };
  return { verb, source: words[1], cards: [] };
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

function setName(id) {
  if ("SHDC".includes(id) && id.length === 1) return t("rummy.run", { suit: t(`suit.${id}`) });
  return t("rummy.monkey", { rank: rankText(id) });
}

function describe(action) {
  const p = parse(action);
  if (p.verb === "extend") {
    const [card, standsFor] = p.as.split("=");
    return `${t("rummy.extendTo", { set: setName(p.set) })}: ${prettyCard(card)}${standsFor ? ` = ${prettyCard(standsFor)}` : ""}`;
  }
  if (p.verb === "swap") return `${t("rummy.swapIn", { set: setName(p.set) })}: ${prettyCard(p.cards[0])}`;
  if (p.verb === "lay") {
    return action.split(" ").slice(1).map((tok) => {
      const [card, standsFor] = tok.split("=");
      return standsFor ? `${prettyCard(card)}=${prettyCard(standsFor)}` : prettyCard(card);
    }).join(" ");
  }
  return action;
}

function matching(view, verb, cards, set = null) {
  return view.legal.filter((a) => {
    const p = parse(a);
    return p.verb === verb && sameCards(p.cards, cards) && (set === null || p.set === set);
  });
}

// Seed 002: the player says which wild stands for which card. The server lists each set of places once, its
// wilds in the rule's order; every other order of the same wild cards over those places is as legal. The page
// offers those orders for the cards selected, unless there are too many to choose from (then the typed move,
// e.g. `lay JK=7H TC=8H 9H`, places them).
const MOST_ORDERS = 48;

function* permutations(items) {
  if (items.length < 2) { yield items; return; }
  for (let i = 0; i < items.length; i += 1) {
    if (items.indexOf(items[i]) !== i) continue; // the same card twice: one order of the two is enough
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) yield [items[i], ...rest];
  }
}

export function wildOrders(view, action) {
  const tokens = action.split(" ").slice(1);
  const isWild = (card) => card === "JK" || card[0] === view.wild_rank;
  const spots = tokens.map((tok, i) => (isWild(cardOf(tok)) ? i : -1)).filter((i) => i >= 0);
  if (spots.length < 2) return [action];
  const place = (tok) => (tok.includes("=") ? tok.split("=")[1] : tok);
  const orders = new Set();
  for (const order of permutations(spots.map((i) => cardOf(tokens[i])))) {
    const placed = [...tokens];
    spots.forEach((spot, k) => { placed[spot] = order[k] === place(tokens[spot]) ? order[k] : `${order[k]}=${place(tokens[spot])}`; });
    orders.add(`lay ${placed.join(" ")}`);
    if (orders.size > MOST_ORDERS) break;
  }
  return [action, ...[...orders].filter((a) => a !== action)];
}

function withWildOrders(view, lays) {
  const all = lays.flatMap((lay) => wildOrders(view, lay));
  return all.length <= MOST_ORDERS ? [...new Set(all)] : lays;
}

// Carry out the move a gesture means; when the rules allow none, send the gesture as typed so that the
// server's refusal gives the rule's reason (an opening too short, ranks not consecutive, a set that is full).
function perform(ctx, actions, attempt = null, emptyText = t("rummy.noMatch")) {
  if (!actions.length) {
    if (attempt) ctx.act(attempt); else ctx.refuse(emptyText);
    return;
  }
  selection.picked.clear();
  if (actions.length === 1) ctx.act(actions[0]);
  else ctx.choose(actions, describe);
}

function heldCodes(view, seat) {
  return [...((view.held || {})[seat] || [])];
}

function render(ctx) {
  const view = ctx.view;
  const me = ctx.you;
  const mine = view.legal.length > 0;
  const picked = mine ? selected(view) : [];
  const felt = h("div", { class: "felt rummy-felt" });

  // the other players
  const others = view.seats.filter((s) => s !== me);
  felt.append(h("div", { class: "opponents" }, others.map((seat) => h("div", { class: "opponent", "data-seat": seat },
    seatPlate(ctx, seat, {
      tags: [view.starter === seat ? t("rummy.starter") : null, view.opened.includes(seat) ? t("rummy.opened") : null].filter(Boolean),
    }),
    ctx.hands && ctx.hands[seat]
      ? h("div", { class: "hand open small-cards" }, ctx.hands[seat].map((c) => cardEl(c, { small: true })))
      : backsFan(view.hand_sizes[seat], { max: 9 }),
    heldCodes(view, seat).length ? h("div", { class: "held" }, t("rummy.held"), " ", heldCodes(view, seat).map((c) => cardEl(c, { small: true }))) : null))));

  // stock, discard pile, indicator
  const canDraw = (source) => view.legal.includes(`draw ${source}`);
  const stock = canDraw("stock")
    ? h("button", { type: "button", class: "pile-card legal", "data-pile": "stock", "aria-label": `${t("rummy.stock")} (${view.stock_size})`, onclick: () => ctx.act("draw stock") }, backEl())
    : h("span", { class: "pile-card", "data-pile": "stock" }, backEl());
  const top = view.top_discard;
  const discardCard = top ? cardEl(top) : h("span", { class: "card empty-pile" });
  const canDiscard = view.phase === "play" && mine;
  let pile;
  if (canDraw("discard")) {
    pile = h("button", { type: "button", class: "pile-card legal", "data-pile": "discard", "aria-label": t("rummy.keyPile"), onclick: () => ctx.act("draw discard") }, discardCard);
  } else if (canDiscard) {
    pile = h("button", {
      type: "button", class: `pile-card${picked.length === 1 ? " legal" : ""}`, "data-pile": "discard", "aria-label": t("rummy.discardSel"),
      onclick: () => (picked.length === 1 ? perform(ctx, matching(view, "discard", picked), `discard ${picked[0]}`) : ctx.refuse(t("rummy.select"))),
    }, discardCard);
  } else {
    pile = h("span", { class: "pile-card", "data-pile": "discard" }, discardCard);
  }
  felt.append(h("div", { class: "piles" },
    h("div", { class: "pile" }, h("span", { class: "pile-label" }, t("rummy.stock")), stock, h("span", {}, String(view.stock_size))),
    h("div", { class: "pile" }, h("span", { class: "pile-label" }, t("rummy.discard")), pile, h("span", {}, String(view.discard_pile.length))),
    h("div", { class: "pile indicator" }, h("span", { class: "pile-label" }, t("rummy.indicator")), cardEl(view.indicator),
      h("span", {}, t("rummy.wild", { rank: rankText(view.wild_rank) })))));

  // the sets on the table
  const sets = h("div", { class: "set-list" });
  for (const set of view.table) {
    const targets = picked.length === 1
      ? view.legal.filter((a) => { const p = parse(a); return (p.verb === "extend" || p.verb === "swap") && p.set === set.id && p.cards[0] === picked[0]; })
      : [];
    const body = [
      h("span", { class: "set-name" }, setName(set.id), " · ", t("rummy.by", { name: ctx.seatLabel(set.owner) })),
      h("span", { class: "set-cards" }, set.cards.map((placed) => cardEl(placed.card, {
        small: true, className: placed.wild ? "tagged" : "",
        tag: placed.wild ? `=${prettyCard(placed.stands_for)}` : null,
        label: placed.wild ? `${placed.card} ${t("rummy.standsFor", { card: placed.stands_for })}` : null,
      }))),
    ];
    if (mine && view.phase === "play" && !view.first_round) {
      sets.append(h("button", {
        type: "button", class: `table-set${targets.length ? " target" : ""}`, "data-set": set.id,
        onclick: () => (picked.length === 1 ? perform(ctx, targets, `extend ${set.id} ${picked[0]}`) : ctx.refuse(t("rummy.extendHint"))),
      }, body));
    } else {
      sets.append(h("div", { class: "table-set", "data-set": set.id }, body));
    }
  }
  // more sets than the box shows: a cue over its foot (or its head) says so, and scrolls (taps missed sets
  // hidden below the fold)
  const cue = (up) => h("button", {
    type: "button", class: `sets-more${up ? " up" : ""}`, hidden: true, tabindex: "-1", "aria-hidden": "true",
    onclick: () => { setsBox.scrollBy({ top: (up ? -0.8 : 0.8) * setsBox.clientHeight, behavior: "smooth" }); },
  }, up ? [t("rummy.moreSetsAbove"), " ▲"] : [t("rummy.moreSets"), " ▼"]);
  const more = cue(false);
  const above = cue(true);
  const setsBox = h("div", {
    class: "table-sets", onscroll: () => { setsScroll = setsBox.scrollTop; showMore(setsBox, more, above); },
  }, h("h2", { class: "sets-title" }, t("rummy.sets"), view.table.length ? h("span", { class: "sets-count" }, ` (${view.table.length})`) : null),
  view.table.length ? sets : h("p", { class: "muted-light" }, t("rummy.noSets")));
  felt.append(h("div", { class: "sets-frame" }, setsBox, above, more));
  requestAnimationFrame(() => { showMore(setsBox, more, above); keepSetsScrolled(setsBox); showMore(setsBox, more, above); });

  // my hand (or, watching, the first seat's backs)
  if (me) {
    const held = heldCodes(view, me);
    let drawnMarked = false;
    const row = h("div", { class: "hand rummy-hand", role: "group", "aria-label": t("seat.you"), "data-seat": me });
    const discardable = new Set(view.legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
    const heldLeft = [...held];
    view.hand.forEach((code, index) => {
      const isDrawn = !drawnMarked && view.drawn === code;
      if (isDrawn) drawnMarked = true;
      const heldIndex = heldLeft.indexOf(code);
      const isHeld = heldIndex >= 0;
      if (isHeld) heldLeft.splice(heldIndex, 1);
      const classes = [isDrawn ? "drawn" : "", isHeld ? "held" : "", ctx.hint && ctx.hint.action.split(" ").slice(1).map(cardOf).includes(code) ? "hinted" : ""].join(" ");
      if (mine && view.phase === "play") {
        const el = cardEl(code, {
          selected: selection.picked.has(index),
          legal: isHeld && !discardable.has(code) ? false : undefined,
          className: classes,
          tag: isDrawn ? t("rummy.drawn") : null,
          onclick: () => {
            if (selection.picked.has(index)) selection.picked.delete(index); else selection.picked.add(index);
            ctx.redraw();
          },
        });
        el.dataset.index = String(index);
        row.append(el);
      } else {
        // not the time to choose cards (drawing, or another's turn): still buttons, so the keyboard stays in the
        // hand between turns; a click says what to do instead
        const el = cardEl(code, {
          className: `${classes} waiting`.trim(), disabled: true,
          onclick: () => ctx.refuse(mine && view.phase === "draw" ? t("rummy.drawQ") : t("table.notYourTurn")),
        });
        el.dataset.index = String(index);
        row.append(el);
      }
    });
    felt.append(h("div", { class: "me" }, seatPlate(ctx, me, { tags: [view.opened.includes(me) ? t("rummy.opened") : null].filter(Boolean) }), row));
  }
  return { felt, side: side(ctx), actions: actions(ctx, picked) };
}

// The sets on the table scroll in their own box, drawn anew at every tap on a card: it keeps where the person
// scrolled it (it sprang back to the top, hiding the sets below).
let setsScroll = 0;

function keepSetsScrolled(box) {
  if (!box.isConnected) return;
  box.scrollTop = setsScroll;
  // a set the selected card may go to is brought into the box's view (the first of them), never the page scrolled
  const target = box.querySelector(".table-set.target");
  if (!target) return;
  const inner = box.getBoundingClientRect();
  const r = target.getBoundingClientRect();
  const foot = box.parentElement.querySelector(".sets-more:not(.up)").getBoundingClientRect().height || 28;
  // not wholly in view: its top to the box's top (the sets above it then leave the view whole, none cut in half)
  if (r.top < inner.top || r.bottom > inner.bottom - foot) box.scrollTop += r.top - inner.top - foot;
  setsScroll = box.scrollTop;
}

function showMore(box, below, above) {
  if (!box.isConnected) return;
  below.hidden = box.scrollHeight - box.clientHeight - box.scrollTop <= 2;
  above.hidden = box.scrollTop <= 2;
}

function actions(ctx, picked) {
  const view = ctx.view;
  if (!view.legal.length) return null;
  if (view.phase === "draw") {
    return h("div", { class: "rummy-actions" },
      h("p", { class: "prompt" }, t("rummy.drawQ")),
      view.legal.includes("draw stock") ? h("button", { type: "button", class: "button primary", "data-action": "draw stock", onclick: () => ctx.act("draw stock") }, t("rummy.stock"), h("kbd", {}, "S")) : null,
      view.legal.includes("draw discard") ? h("button", { type: "button", class: "button", "data-action": "draw discard", onclick: () => ctx.act("draw discard") }, t("rummy.discard"), h("kbd", {}, "D")) : null);
  }
  const lays = picked.length ? withWildOrders(view, matching(view, "lay", picked)) : [];
  const discards = picked.length === 1 ? matching(view, "discard", picked) : [];
  // Lay is offered for any selection: what the rules refuse comes back with the reason
  return h("div", { class: "rummy-actions" },
    h("p", { class: "prompt" }, view.first_round ? t("rummy.firstRound") : `${t("rummy.playQ")} ${t("rummy.extendHint")}`),
    view.first_round ? null : h("button", {
      type: "button", class: `button${lays.length ? " primary" : ""}`, "data-action": "lay", disabled: !picked.length,
      onclick: () => perform(ctx, lays, `lay ${picked.join(" ")}`),
    }, t("rummy.lay"), h("kbd", {}, "L")),
    h("button", {
      type: "button", class: "button primary", "data-action": "discard", disabled: picked.length !== 1,
      onclick: () => perform(ctx, discards, `discard ${picked[0]}`),
    }, t("rummy.discardSel"), h("kbd", {}, "X")));
}

function side(ctx) {
  const view = ctx.view;
  return h("div", { class: "side-game" },
    h("div", { class: "trump-box" },
      h("span", { class: "label" }, t("rummy.indicator")),
      h("span", { class: "suit-badge" }, prettyCard(view.indicator)),
      h("span", { class: "trump-name" }, t("rummy.wild", { rank: rankText(view.wild_rank) })),
      h("span", { class: "deal-no" }, view.hands_in_session === null
        ? `${t("table.hand", { n: view.deal_number })} (${t("rummy.openSession")})`
        : `${t("table.hand", { n: view.deal_number })} / ${view.hands_in_session}`),
      sessionEnd(ctx)),
    h("table", { class: "side-scores" },
      h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, "🂠"), h("th", { scope: "col" }, t("rummy.totals")))),
      h("tbody", {}, view.seats.map((seat) => h("tr", { class: seat === ctx.you ? "mine" : "" },
        h("th", { scope: "row" }, ctx.seatLabel(seat), view.opened.includes(seat) ? " ✓" : ""),
        h("td", {}, String(view.hand_sizes[seat])),
        h("td", { class: "score" }, String(view.scores[seat])))))));
}

// Seed 002: "there is no fixed number of hands: when the group ends the session". In an open
// session any player at the table may end it after the hand in progress.
function sessionEnd(ctx) {
  const view = ctx.view;
  if (view.hands_in_session !== null || view.phase === "over") return null;
  if (view.session_ending) return h("span", { class: "session-end", "data-session": "ending" }, t("rummy.lastHand"));
  if (!view.seats.includes(ctx.you)) return null;
  return h("button", { type: "button", class: "button", "data-action": "end session", onclick: () => ctx.act("end session") }, t("rummy.endSession"));
}

function sheet(ctx) {
  const view = ctx.view;
  return h("div", { class: "table-scroll" }, h("table", { class: "sheet rummy-sheet" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("rummy.starter")),
      view.seats.map((s) => h("th", { scope: "col" }, ctx.seatLabel(s))))),
    h("tbody", {}, view.score_sheet.map((row) => h("tr", {},
      h("td", {}, String(row.hand)),
      h("td", {}, ctx.seatLabel(row.starter)),
      view.seats.map((s) => h("td", { class: row.went_out === s ? "good" : "" }, `${row.totals[s]}`, h("small", { class: "muted" }, ` (+${row.points[s]})`))))))));
}

function summary(deal, ctx) {
  const view = ctx.view;
  const left = deal.left || (deal.result || {}).left || {};
  const points = deal.points || (deal.result || {}).points || {};
  const wentOut = deal.went_out ?? (deal.result || {}).went_out;
  return h("div", { class: "summary" },
    h("p", { class: "summary-head" }, t("table.hand", { n: deal.number }), " · ", t("rummy.indicator"), " ", prettyCard(deal.indicator), " · ",
      wentOut ? (wentOut === ctx.you ? t("rummy.wentOutYou") : t("rummy.wentOut", { name: ctx.seatLabel(wentOut) })) : t("rummy.stockOut")),
    // the outcome first: on a phone the hands left fill screens before it
    h("h3", {}, t("rummy.totals")),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, view.seats.map((s) => h("th", { scope: "col" }, ctx.seatLabel(s))))),
      h("tbody", {}, h("tr", {}, view.seats.map((s) => h("td", {}, String((deal.scores || {})[s] ?? "")))))),
    h("h3", {}, t("rummy.left")),
    h("div", { class: "summary-hands" }, view.seats.map((seat) => h("div", { class: "summary-hand" },
      h("span", { class: "label" }, ctx.seatLabel(seat), " — ", t("rummy.points"), " ", String(points[seat] ?? 0),
        (deal.opened || []).includes(seat) ? "" : ` (${t("rummy.notOpened")})`),
      h("div", { class: "hand small-cards" }, (left[seat] || []).map((c) => cardEl(c, { small: true })))))));
}

function onKey(ctx, event) {
  const view = ctx.view;
  if (!view.legal.length) return false;
  const key = event.key.toLowerCase();
  if (view.phase === "draw") {
    if (key === "s" && view.legal.includes("draw stock")) { ctx.act("draw stock"); return true; }
    if (key === "d" && view.legal.includes("draw discard")) { ctx.act("draw discard"); return true; }
    return false;
  }
  const picked = selected(view);
  if (key === "l") { perform(ctx, picked.length ? withWildOrders(view, matching(view, "lay", picked)) : [], picked.length ? `lay ${picked.join(" ")}` : null); return true; }
  if (key === "x") { perform(ctx, picked.length === 1 ? matching(view, "discard", picked) : [], picked.length === 1 ? `discard ${picked[0]}` : null, t("rummy.select")); return true; }
  if (key === "e") {
    const options = picked.length === 1
      ? view.legal.filter((a) => { const p = parse(a); return (p.verb === "extend" || p.verb === "swap") && p.cards[0] === picked[0]; })
      : [];
    perform(ctx, options, null, t("rummy.extendHint"));
    return true;
  }
  return false;
}

function prompt(ctx) {
  const view = ctx.view;
  if (view.phase === "draw") return t("rummy.drawQ");
  return view.first_round ? t("rummy.firstRound") : t("rummy.playQ");
}

export default {
  id: "rummy",
  turnText: (ctx, name) => t(ctx.view.phase === "draw" ? "rummy.drawing" : "rummy.playing", { name }),
  render,
  sheet,
  summary,
  previousDeal: (view) => view.previous_hand,
  lastTrick: null,
  hasTricks: false,
  onKey,
  prompt,
  dealLabel: (view) => t("table.hand", { n: view.deal_number }),
  commandExample: "discard 4C",
  keyHelp: () => [
    ["S", t("rummy.keyStock")], ["D", t("rummy.keyPile")], ["Space", t("rummy.keySelect")],
    ["L", t("rummy.keyLay")], ["X", t("rummy.keyDiscard")], ["E", t("rummy.keyExtend")],
  ],
};

