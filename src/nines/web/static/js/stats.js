// A person's statistics, kept by the server under the name they play with.

import { api } from "./api.js";
import { nameField, startPage } from "./chrome.js";
import { clear, h } from "./dom.js";
import { onLangChange, pick, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { errorText } from "./refusals.js";

const main = startPage("stats");
const box = h("section", { class: "panel stats" });
main.append(box);
const wanted = new URLSearchParams(location.search).get("name") || prefs.name;
let data = null;

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)} %`);
const num = (x) => (x === null || x === undefined ? "–" : String(x));

// The review (docs/review.md): tricks lost per deal to cards the exact solver scores below the best card.
const REVIEW_LOST = { en: "Tricks lost per deal to costly cards (deals reviewed)", fr: "Levées perdues par donne sur des cartes coûteuses (donnes analysées)" };
const REVIEW_TITLE = { en: "Tricks lost to costly cards, day by day", fr: "Levées perdues sur des cartes coûteuses, jour par jour" };
const REVIEW_NOTE = {
  en: "After each deal the exact solver compares every card you chose with the best card, every hand known, counting tricks to the end of the deal.",
  fr: "Après chaque donne, le solveur exact compare chaque carte que vous avez choisie à la meilleure, toutes les mains connues, en comptant les levées jusqu'à la fin de la donne.",
};
const REVIEW_DAY = { en: "Day", fr: "Jour" };
const REVIEW_DEALS = { en: "Deals", fr: "Donnes" };
const REVIEW_AVG = { en: "Tricks lost per deal", fr: "Levées perdues par donne" };

function reviewOverTime(games) {
  const reviewed = games.filter(([, g]) => g.review && g.review.by_day && g.review.by_day.length);
  if (!reviewed.length) return null;
  return h("section", { class: "stats-review" },
    h("h2", {}, pick(REVIEW_TITLE)),
    h("p", { class: "muted small" }, pick(REVIEW_NOTE)),
    reviewed.map(([id, g]) => h("div", { class: "table-scroll" },
      h("table", { class: "sheet stats-review-table", "data-game": id },
        h("caption", {}, t(`game.${id}.name`)),
        h("thead", {}, h("tr", {}, [REVIEW_DAY, REVIEW_DEALS, REVIEW_AVG].map((k) => h("th", { scope: "col" }, pick(k))))),
        h("tbody", {}, g.review.by_day.map((row) => h("tr", {},
          h("th", { scope: "row" }, row.day), h("td", {}, row.deals), h("td", {}, row.average_lost))))))));
}

// Where a person's ratings and the daily challenge are (pages of their own: docs/ratings.md)
const MORE = {
  profile: { en: "Profile and ratings", fr: "Profil et cotes" },
  ratings: { en: "Leaderboards", fr: "Classements" },
  challenge: { en: "Daily challenge", fr: "Défi du jour" },
  label: { en: "More", fr: "Plus" },
};

function more() {
  return h("nav", { class: "ratings-games", "aria-label": pick(MORE.label) },
    wanted ? h("a", { class: "button quiet", href: `/people/${encodeURIComponent(wanted)}` }, pick(MORE.profile)) : null,
    h("a", { class: "button quiet", href: "/ratings/neuf" }, pick(MORE.ratings)),
    h("a", { class: "button quiet", href: "/challenge/neuf" }, pick(MORE.challenge)));
}

function draw() {
  clear(box);
  box.append(h("h1", { class: "display small" }, wanted ? t("stats.for", { name: wanted }) : t("stats.title")), more());
  if (!wanted) {
    box.append(h("p", {}, t("stats.noName")), nameField());
    return;
  }
  if (!data) return;
  const games = Object.entries(data.games);
  if (!games.length) {
    box.append(h("p", { class: "muted" }, t("stats.none")));
    return;
  }
  const rows = [
    ["stats.matches", (g) => num(g.matches)],
    ["stats.matchesWon", (g) => num(g.matches_won)],
    ["stats.deals", (g) => num(g.deals)],
    ["stats.dealsWon", (g) => num(g.deals_won)],
    ["stats.avgTricks", (g) => (g.average_tricks === null ? "–" : `${g.average_tricks} / ${g.average_target}`)],
    ["stats.avgMargin", (g) => num(g.average_margin)],
    ["stats.exchangeRate", (g) => pct(g.exchange_rate)],
    ["stats.declareRate", (g) => pct(g.declare_rate)],
    ["stats.avgPoints", (g) => num(g.average_points)],
    [REVIEW_LOST, (g) => (g.review ? `${g.review.average_lost} (${g.review.deals})` : "–")],
  ];
  box.append(
    h("div", { class: "table-scroll" },
      h("table", { class: "sheet stats-table" },
        h("thead", {}, h("tr", {}, h("td", {}), games.map(([id]) => h("th", { scope: "col" }, t(`game.${id}.name`))))),
        h("tbody", {}, rows.map(([key, fn]) => h("tr", {}, h("th", { scope: "row" }, typeof key === "string" ? t(key) : pick(key)), games.map(([, g]) => h("td", {}, fn(g)))))))),
    h("p", { class: "muted small" }, t("stats.notes")),
    reviewOverTime(games),
  );
}

draw();
onLangChange(draw);
if (wanted) {
  api.stats(wanted).then((result) => { data = result; draw(); }).catch((error) => box.append(h("p", { class: "form-error" }, errorText(error))));
}
