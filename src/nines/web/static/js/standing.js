// What the ratings, challenge and profile pages share: their words in both languages, and small helpers.

export const W = {
  ratings: { en: "Ratings", fr: "Classement" },
  ratingsOf: { en: "Ratings: {game}", fr: "Classement : {game}" },
  ratingsNote: {
    en: "Ratings start at 1500 with a deviation of 350 and settle as the deviation falls below 230. Only settled ratings are listed; computer players are marked, to show where a newcomer stands.",
    fr: "Les cotes partent de 1500 avec un écart de 350 et se stabilisent quand l'écart passe sous 230. Seules les cotes stables sont classées ; les joueurs ordinateur sont signalés, pour situer un nouveau venu.",
  },
  noRatings: { en: "No settled rating yet for this game.", fr: "Pas encore de cote stable pour ce jeu." },
  place: { en: "#", fr: "Rang" },
  name: { en: "Name", fr: "Nom" },
  rating: { en: "Rating", fr: "Cote" },
  deviation: { en: "±", fr: "±" },
  matches: { en: "Matches", fr: "Parties" },
  computer: { en: "computer", fr: "ordinateur" },
  provisional: { en: "provisional", fr: "provisoire" },
  challenge: { en: "Daily challenge", fr: "Défi du jour" },
  challengeOf: { en: "Daily challenge: {game}, {day}", fr: "Défi du jour : {game}, {day}" },
  challengeLead: {
    en: "Everyone plays the same {deals} deals from the same seat against the same computer players; each deal is compared with everyone else's result on it.",
    fr: "Chacun joue les mêmes {deals} donnes à la même place contre les mêmes joueurs ordinateur ; chaque donne est comparée au résultat de tous les autres.",
  },
  play: { en: "Play today's challenge", fr: "Jouer le défi du jour" },
  needName: { en: "Choose a name first: the challenge is played under your name.", fr: "Choisissez d'abord un nom : le défi se joue sous votre nom." },
  standings: { en: "Standings", fr: "Classement du jour" },
  noStandings: { en: "Nobody has finished this day's challenge yet.", fr: "Personne n'a encore terminé le défi de ce jour." },
  percent: { en: "Score", fr: "Score" },
  deal: { en: "Deal {n}", fr: "Donne {n}" },
  spread: { en: "Each deal", fr: "Chaque donne" },
  spreadNote: {
    en: "Results are points for you (higher is better); matchpoints: beating another result counts 1, a tie 1/2.",
    fr: "Les résultats sont des points pour vous (plus c'est haut, mieux c'est) ; points de match : battre un autre résultat compte 1, une égalité 1/2.",
  },
  spreadSecret: { en: "The deals' results open once you have finished the day's challenge.", fr: "Les résultats des donnes s'ouvrent une fois le défi du jour terminé." },
  yours: { en: "Yours", fr: "Le vôtre" },
  placeOf: { en: "{place} of {count}", fr: "{place} sur {count}" },
  results: { en: "All results", fr: "Tous les résultats" },
  best: { en: "Best result's play", fr: "Jeu du meilleur résultat" },
  review: { en: "Your table (replay and review)", fr: "Votre table (reprise et analyse)" },
  previous: { en: "Previous day", fr: "Jour précédent" },
  profile: { en: "Profile of {name}", fr: "Profil de {name}" },
  chart: { en: "Rating after each rated match", fr: "Cote après chaque partie classée" },
  chartAlt: { en: "Line chart of {name}'s rating after each rated match, per game", fr: "Courbe de la cote de {name} après chaque partie classée, par jeu" },
  noProfile: { en: "No rated match or challenge yet for this name.", fr: "Pas encore de partie classée ni de défi sous ce nom." },
  recent: { en: "Recent rated matches", fr: "Parties classées récentes" },
  change: { en: "Change", fr: "Variation" },
  replay: { en: "Replay", fr: "Reprise" },
  challenges: { en: "Challenges", fr: "Défis" },
  day: { en: "Day", fr: "Jour" },
  game: { en: "Game", fr: "Jeu" },
  unfinished: { en: "not finished", fr: "pas terminé" },
  lost: { en: "Tricks lost to costly cards, day by day", fr: "Levées perdues sur des cartes coûteuses, jour par jour" },
  dealsReviewed: { en: "Deals reviewed", fr: "Donnes analysées" },
  lostPerDeal: { en: "Tricks lost per deal", fr: "Levées perdues par donne" },
  ratingChange: { en: "Rating: {rating} ({change})", fr: "Cote : {rating} ({change})" },
  provisionalMark: { en: "{text}, provisional", fr: "{text}, provisoire" },
  ratingsAfter: { en: "Ratings after the match", fr: "Cotes après la partie" },
};

export function fmt(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined ? `{${k}}` : String(params[k])));
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "±0";
}

export async function getJSON(path) {
  const response = await fetch(path);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(data?.message || response.statusText);
    error.status = response.status;
    error.key = data?.key || "";
    error.params = data?.params || {};
    error.code = data?.code || "error";
    throw error;
  }
  return data;
}

// Under the "match over" notice and in the last deal's summary: the rating change of each person (asked for once
// per table), and at a table of the daily challenge a link to the day's standings.
const asked = new Map();

function changesOf(tableId) {
  // the match was rated in a task of its own, which the server waits for before it answers
  if (!asked.has(tableId)) {
    asked.set(tableId, getJSON(`/api/tables/${encodeURIComponent(tableId)}/ratings`).catch(() => { asked.delete(tableId); return []; }));
  }
  return asked.get(tableId);
}

function rated(table) {
  return table.status === "over" && table.preset !== "challenge" && table.seats.some((seat) => seat.kind === "human");
}

export function ratingChangeText(change) {
  const text = fmt(pickText(W.ratingChange), { rating: change.rating, change: signed(change.change) });
  return `${change.name} — ${change.provisional ? fmt(pickText(W.provisionalMark), { text }) : text}`;
}

// Each person's rating change as lines (class rating-change) filled in when the answer comes: empty for a match
// that was not rated (casual, practice, a challenge, computer players only).
export function ratingChanges(tableId, table, { heading = false } = {}) {
  const box = document.createElement("div");
  box.className = "rating-changes";
  if (!rated(table)) return box;
  changesOf(tableId).then((changes) => {
    if (!changes.length) return;
    if (heading) {
      const title = document.createElement("h3");
      title.textContent = pickText(W.ratingsAfter);
      box.append(title);
    }
    for (const c of changes) {
      const line = document.createElement("p");
      line.className = "rating-change";
      line.dataset.name = c.name;
      line.textContent = ratingChangeText(c);
      box.append(line);
    }
  });
  return box;
}

export function afterMatch(tableId, game, table) {
  const box = document.createElement("div");
  box.className = "after-match";
  if (table.preset === "challenge") {
    const link = document.createElement("a");
    link.href = `/challenge/${game}`;
    link.className = "button";
    link.dataset.tool = "standings";
    link.textContent = pickText(W.standings);
    box.append(link);
  }
  box.append(ratingChanges(tableId, table));
  return box;
}

function pickText(texts) {
  const lang = document.documentElement.lang === "fr" ? "fr" : "en";
  return texts[lang] || texts.en;
}
