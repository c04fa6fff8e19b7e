// A person's statistics, kept by the server under the name they play with.

import { api } from "./api.js";
import { nameField, startPage } from "./chrome.js";
import { clear, h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { prefs } from "./prefs.js";

const main = startPage("stats");
const box = h("section", { class: "panel stats" });
main.append(box);
const wanted = new URLSearchParams(location.search).get("name") || prefs.name;
let data = null;

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)} %`);
const num = (x) => (x === null || x === undefined ? "–" : String(x));

function draw() {
  clear(box);
  box.append(h("h1", { class: "display small" }, wanted ? t("stats.for", { name: wanted }) : t("stats.title")));
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
  ];
  box.append(
    h("div", { class: "table-scroll" },
      h("table", { class: "sheet stats-table" },
        h("thead", {}, h("tr", {}, h("th", {}), games.map(([id]) => h("th", { scope: "col" }, t(`game.${id}.name`))))),
        h("tbody", {}, rows.map(([key, fn]) => h("tr", {}, h("th", { scope: "row" }, t(key)), games.map(([, g]) => h("td", {}, fn(g)))))))),
    h("p", { class: "muted small" }, t("stats.notes")),
  );
}

draw();
onLangChange(draw);
if (wanted) {
  api.stats(wanted).then((result) => { data = result; draw(); }).catch((error) => box.append(h("p", { class: "form-error" }, error.message)));
}
