// The review of a finished deal (GET /api/tables/{id}/review/{deal}, docs/review.md): every card played
// compared with the best card by the exact solver, shown in the deal summary and in the replay.

import { h, fill } from "./dom.js";
import { format, pick, plural, seatName } from "./i18n.js";
import { prettyCard, suitSymbol } from "./cards.js";
import { ApiError, named } from "./api.js";
import { prefs } from "./prefs.js";
import { errorText } from "./refusals.js";

const W = {
  title: { en: "Review", fr: "Analyse" },
  loading: { en: "The computer is reviewing the deal…", fr: "L'ordinateur analyse la donne…" },
  failed: { en: "The review could not be loaded: {why}", fr: "L'analyse n'a pas pu être chargée : {why}" },
  side: {
    en: "Each card is compared with the best card, every hand known: the tricks the player's side can still take, counted to the end of the deal as if every trick were played out.",
    fr: "Chaque carte est comparée à la meilleure, toutes les mains connues : les levées que le camp du joueur peut encore faire, comptées jusqu'à la fin de la donne comme si toutes les levées étaient jouées.",
  },
  seat: {
    en: "Each card is compared with the best card, every hand known: the tricks the player can still take alone against all the others together, counted to the end of the deal as if every trick were played out.",
    fr: "Chaque carte est comparée à la meilleure, toutes les mains connues : les levées que le joueur peut encore faire seul contre tous les autres réunis, comptées jusqu'à la fin de la donne comme si toutes les levées étaient jouées.",
  },
  opinion: {
    en: "Each discard compared with the one the expert computer player would have made from what the player could see. This is the computer's opinion, not a proof: rummy has no exact solver.",
    fr: "Chaque défausse comparée à celle que le joueur expert de l'ordinateur aurait faite avec ce que le joueur voyait. C'est l'avis de l'ordinateur, pas une preuve : le rami n'a pas de solveur exact.",
  },
  trick: { en: "Trick {n}", fr: "Levée {n}" },
  cost: { en: "cost {n}", fr: "coûte {n}" },
  best: { en: "best: {cards}", fr: "meilleure : {cards}" },
  unscored: { en: "not scored", fr: "non évaluée" },
  player: { en: "Player", fr: "Joueur" },
  cards: { en: "Cards played", fr: "Cartes jouées" },
  errors: { en: "Cards that cost", fr: "Cartes coûteuses" },
  lost: { en: "Tricks lost", fr: "Levées perdues" },
  exchange: { en: "The exchange (the player's tricks at the first lead)", fr: "L'échange (levées du joueur à la première entame)" },
  keep: { en: "kept", fr: "a gardé" },
  took: { en: "exchanged", fr: "a échangé" },
  exchangeRow: {
    en: { one: "{seat} {choice}: {n} trick alone against the others; the other choice: {other}", other: "{seat} {choice}: {n} tricks alone against the others; the other choice: {other}" },
    fr: { one: "{seat} {choice} : {n} levée seul contre les autres ; l'autre choix : {other}", other: "{seat} {choice} : {n} levées seul contre les autres ; l'autre choix : {other}" },
  },
  exchangeRowYou: {
    en: { one: "You {choice}: {n} trick alone against the others; the other choice: {other}", other: "You {choice}: {n} tricks alone against the others; the other choice: {other}" },
    fr: { one: "Vous avez {choice} : {n} levée seul contre les autres ; l'autre choix : {other}", other: "Vous avez {choice} : {n} levées seul contre les autres ; l'autre choix : {other}" },
  },
  keptYou: { en: "kept", fr: "gardé" },
  tookYou: { en: "exchanged", fr: "échangé" },
  contractYou: {
    en: "The contract: you bid {bid}. Tricks the declaring side could make with each trump:",
    fr: "Le contrat : vous avez demandé {bid}. Levées que le camp déclarant pouvait faire avec chaque atout :",
  },
  valuesYou: { en: "You to play: what each card is worth", fr: "À vous de jouer : ce que vaut chaque carte" },
  aloneNote: {
    en: "These counts are the tricks a player could take if all the others played together against them, so they can be fewer than the tricks the player really took.",
    fr: "Ces nombres sont les levées qu'un joueur pourrait faire si tous les autres jouaient ensemble contre lui : ils peuvent être plus petits que les levées vraiment prises.",
  },
  won: { en: "won by {seat}", fr: "prise par {seat}" },
  anyCard: { en: "any card", fr: "n'importe quelle carte" },
  anySuit: { en: "any {suit}", fr: "n'importe quel {suit}" },
  anyBut: { en: "any card but {cards}", fr: "n'importe quelle carte sauf {cards}" },
  suitOne: { en: { S: "spade", H: "heart", D: "diamond", C: "club" }, fr: { S: "pique", H: "cœur", D: "carreau", C: "trèfle" } },
  contract: {
    en: "The contract: {seat} bid {bid}. Tricks the declaring side could make with each trump:",
    fr: "Le contrat : {seat} a demandé {bid}. Levées que le camp déclarant pouvait faire avec chaque atout :",
  },
  named: { en: "named", fr: "choisi" },
  values: { en: "{seat} to play: what each card is worth", fr: "{seat} joue : ce que vaut chaque carte" },
  played: { en: "played", fr: "jouée" },
  turn: { en: "Turn", fr: "Tour" },
  discarded: { en: "Discarded", fr: "Défausse" },
  expert: { en: "The expert would discard", fr: "L'expert défausserait" },
  same: { en: "the same", fr: "la même" },
  // the review's notes, by their key (note_keys in the review's JSON)
  "review.stopped_early": {
    en: "Play stopped after trick {trick} of {tricks}; the values still count every trick to the end of the deal, as if it were played out.",
    fr: "Le jeu s'est arrêté après la levée {trick} sur {tricks} ; les valeurs comptent quand même chaque levée jusqu'à la fin de la donne, comme si elle était jouée.",
  },
  "review.unscored": {
    en: { one: "{n} of {cards} cards not scored: the search stopped at its limit of {nodes} positions; that card is marked rather than guessed.",
      other: "{n} of {cards} cards not scored: the search stopped at its limit of {nodes} positions; those cards are marked rather than guessed." },
    fr: { one: "{n} carte sur {cards} non évaluée : la recherche s'est arrêtée à sa limite de {nodes} positions ; cette carte est marquée plutôt que devinée.",
      other: "{n} cartes sur {cards} non évaluées : la recherche s'est arrêtée à sa limite de {nodes} positions ; ces cartes sont marquées plutôt que devinées." },
  },
  "review.thrown_in": { en: "Thrown in: nobody bid, no card was played.", fr: "Donne annulée : personne n'a enchéri, aucune carte n'a été jouée." },
  "review.relaxed_rules": {
    en: "The solver plays the strict rule in full (beat the led suit, trump, over-trump, under-trump, no exception for a partner); this match relaxes it, so its cards cannot be scored.",
    fr: "Le solveur applique la règle stricte en entier (monter sur la couleur demandée, couper, surcouper, sous-couper, sans exception pour le partenaire) ; cette partie l'assouplit, ses cartes ne peuvent donc pas être évaluées.",
  },
};

// A text in the page's language; one with plural forms takes the one its number ``n`` needs.
function w(key, params = {}) {
  return format(plural(pick(W[key]), params.n ?? 0), params);
}

const loaded = new Map();

// The review of one deal (kept per table and deal: a finished deal's review never changes).
export function loadReview(tableId, deal) {
  const key = `${tableId}/${deal}`;
  if (!loaded.has(key)) {
    const request = fetch(`/api/tables/${encodeURIComponent(tableId)}/review/${deal}${named(prefs.name)}`).then(async (response) => {
      const data = await response.json().catch(() => null);
      if (!response.ok) throw new ApiError(data?.code || "error", data?.message || response.statusText, response.status, data?.key || "", data?.params || {});
      return data;
    });
    request.catch(() => loaded.delete(key));
    loaded.set(key, request);
  }
  return loaded.get(key);
}

function cardText(code) {
  return h("span", { class: `review-card${"HD".includes(code[1]) ? " red" : ""}` }, prettyCard(code));
}

function cardList(codes) {
  const out = [];
  codes.forEach((code, i) => { if (i) out.push(" "); out.push(cardText(code)); });
  return out;
}

// The best cards said the short way when there are many: "any heart", "any card but 7♠", "any card".
function bestText(play) {
  const best = play.best_cards || [];
  const legal = play.scores ? Object.keys(play.scores) : [];
  if (best.length < 3 || !legal.length) return cardList(best);
  if (best.length === legal.length) return w("anyCard");
  const suits = new Set(best.map((code) => code[1]));
  if (suits.size === 1) {
    const suit = best[0][1];
    if (legal.filter((code) => code[1] === suit).every((code) => best.includes(code))) return w("anySuit", { suit: pick(W.suitOne)[suit] });
  }
  const others = legal.filter((code) => !best.includes(code));
  if (others.length <= 2) return [w("anyBut", { cards: "" }), cardList(others)];
  return cardList(best);
}

// Who won each trick (the highest trump, or the highest card of the suit led).
const ORDERS = { neuf: "23456789TJQKA", elyigit: "A23456789" };

function trickWinner(plays, trump, order) {
  let best = plays[0];
  for (const play of plays.slice(1)) {
    const [code, top] = [play.card, best.card];
    if (code[1] === top[1]) { if (order.indexOf(code[0]) > order.indexOf(top[0])) best = play; } else if (code[1] === trump && top[1] !== trump) best = play;
  }
  return best.seat;
}

function totals(review, who) {
  const rows = Object.entries(review.seats).filter(([, total]) => total.cards > 0);
  return h("table", { class: "review-totals" },
    h("thead", {}, h("tr", {}, [w("player"), w("cards"), w("errors"), w("lost")].map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map(([seat, total]) => h("tr", { "data-seat": seat },
      h("th", { scope: "row" }, who(seat)),
      h("td", {}, total.cards),
      h("td", {}, total.errors),
      h("td", { class: total.cost ? "review-lost" : "" }, total.cost)))));
}

function playItem(play, who) {
  const costly = play.cost > 0;
  const scored = play.cost !== null && play.cost !== undefined;
  return h("li", { class: `review-play${costly ? " costly" : ""}${scored ? "" : " unscored"}`, "data-cost": scored ? play.cost : "" },
    h("span", { class: "review-seat" }, who(play.seat)), " ", cardText(play.card),
    costly ? [" ", h("span", { class: "review-cost" }, w("cost", { n: play.cost })), " ",
      h("span", { class: "review-best" }, w("best", { cards: "" }), bestText(play))] : null,
    scored ? null : [" ", h("span", { class: "review-unscored", title: play.unscored || "" }, w("unscored"))]);
}

function tricks(review, who) {
  const byTrick = new Map();
  for (const play of review.plays) {
    if (!byTrick.has(play.trick)) byTrick.set(play.trick, []);
    byTrick.get(play.trick).push(play);
  }
  const order = ORDERS[review.game];
  return h("ol", { class: "review-tricks" }, [...byTrick.entries()].map(([n, plays]) => {
    const whole = order && plays.length === Object.keys(review.seats).length;
    return h("li", { class: "review-trick" }, h("span", { class: "review-trick-n" }, w("trick", { n })),
      whole ? [" ", h("span", { class: "review-winner" }, w("won", { seat: who(trickWinner(plays, review.trump, order)) }))] : null,
      h("ul", {}, plays.map((play) => playItem(play, who))));
  }));
}

function exchange(review, who) {
  if (!review.exchange || !review.exchange.length) return null;
  return [h("h4", {}, w("exchange")), h("p", { class: "review-alone" }, w("aloneNote")), h("ul", { class: "review-exchange" }, review.exchange.map((d) =>
    h("li", { class: d.cost ? "costly" : "" },
      d.seat === who.you
        ? w("exchangeRowYou", { choice: w(d.choice === "keep" ? "keptYou" : "tookYou"), n: d.value ?? "?", other: d.other_value ?? "?" })
        : w("exchangeRow", { seat: who(d.seat), choice: w(d.choice === "keep" ? "keep" : "took"), n: d.value ?? "?", other: d.other_value ?? "?" }),
      d.cost ? [" ", h("span", { class: "review-cost" }, w("cost", { n: d.cost }))] : null)))];
}

function contract(review, who) {
  const c = review.contract;
  if (!c) return null;
  const trumps = Object.keys(c.by_trump);
  return [h("h4", {}, c.declarer === who.you ? w("contractYou", { bid: c.bid }) : w("contract", { seat: who(c.declarer), bid: c.bid })),
    h("table", { class: "review-contract" },
      h("thead", {}, h("tr", {}, trumps.map((trump) => h("th", { scope: "col" }, suitBadgeText(trump), trump === c.trump ? ` (${w("named")})` : "")))),
      h("tbody", {}, h("tr", {}, trumps.map((trump) => h("td", { class: c.best_trumps.includes(trump) ? "review-best-trump" : "" }, c.by_trump[trump] ?? "?")))))];
}

function suitBadgeText(trump) {
  return trump === "NT" ? "NT" : suitSymbol(trump);
}

function discards(review, who) {
  return h("table", { class: "review-discards" },
    h("thead", {}, h("tr", {}, [w("turn"), w("player"), w("discarded"), w("expert")].map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, review.discards.map((d) => h("tr", { class: d.same ? "" : "differs" },
      h("td", {}, d.turn), h("th", { scope: "row" }, who(d.seat)), h("td", {}, cardText(d.card)),
      h("td", {}, d.same ? w("same") : d.expert ? cardText(d.expert) : d.expert_action)))));
}

// A note in the page's language by its key; a note the page has no words for keeps the server's English.
function noteText(note, keyed) {
  if (!keyed || !W[keyed.key]) return note;
  const params = { ...keyed.params };
  if (typeof params.nodes === "number") params.nodes = params.nodes.toLocaleString(pick({ en: "en", fr: "fr" }));
  return w(keyed.key, params);
}

// The whole review, drawn from the server's JSON; ``who`` names a seat the way the rest of the page does ("you").
export function reviewView(review, who = seatName) {
  if (review.game === "rummy") {
    return h("div", { class: "review", "data-review-deal": review.number },
      h("p", { class: "review-measure" }, w("opinion")), discards(review, who));
  }
  return h("div", { class: "review", "data-review-deal": review.number },
    h("p", { class: "review-measure" }, w(review.counted === "side" ? "side" : "seat")),
    (review.notes || []).map((note, i) => h("p", { class: "review-note" }, noteText(note, (review.note_keys || [])[i]))),
    exchange(review, who), contract(review, who), totals(review, who), tricks(review, who));
}

export function reviewTitle() {
  return w("title");
}

// A section that shows the review of a finished deal: ``review`` if already loaded, else it loads it.
export function reviewPanel(tableId, deal, review = null, { heading = true, who = seatName } = {}) {
  const body = h("div", { class: "review-body", "aria-live": "polite" }, review ? reviewView(review, who) : w("loading"));
  if (!review) {
    loadReview(tableId, deal)
      .then((loadedReview) => fill(body, reviewView(loadedReview, who)))
      .catch((error) => fill(body, h("p", { class: "review-note" }, w("failed", { why: errorText(error) }))));
  }
  // without its visible heading (the replay's fold says it) the heading is still there for the outline: h2, h3, h4
  return h("section", { class: "review-panel" }, h("h3", heading ? {} : { class: "sr-only" }, w("title")), body);
}

// At a step of the replay (the position before action ``step`` of the deal), the value of every legal card
// of the seat to play, as the review scored it; null when the next action is not a card played.
export function stepValues(review, record, step, who = seatName) {
  if (!review || !review.plays || !record) return null;
  const actions = record.actions || [];
  const next = actions[step];
  if (!next || next.action !== "play") return null;
  const index = actions.slice(0, step).filter((a) => a.action === "play").length;
  const play = review.plays[index];
  if (!play || !play.scores) return null;
  const best = play.best;
  return h("div", { class: "review-values", "data-step": step },
    h("p", {}, play.seat === who.you ? w("valuesYou") : w("values", { seat: who(play.seat) })),
    h("ul", {}, Object.entries(play.scores).map(([card, value]) => h("li", {
      class: `${value === best ? "best" : "worse"}${card === play.card ? " played" : ""}`, "data-card": card,
    }, cardText(card), " ", h("b", {}, value), card === play.card ? [" ", h("span", { class: "review-played" }, w("played"))] : null))));
}
