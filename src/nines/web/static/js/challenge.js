// The daily challenge of a game: play today's, the day's standings, and once you have finished each deal's
// spread of results, your place, your table (its replays and reviews) and the best result's play.

import { api } from "./api.js";
import { GAME_IDS, nameField, startPage } from "./chrome.js";
import { clear, h } from "./dom.js";
import { onLangChange, pick, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { errorText } from "./refusals.js";
import { W, fmt, getJSON } from "./standing.js";

const DEALS = { neuf: 6, elyigit: 8, rummy: 3 };
const main = startPage("challenge");
const box = h("section", { class: "panel stats challenge" });
main.append(box);
const parts = location.pathname.split("/");
const game = decodeURIComponent(parts[2] || "neuf");
let day = decodeURIComponent(parts[3] || "today");
let standings = null;
let spread = null;
let spreadClosed = false;
let failed = "";
let today = null;

async function play(button) {
  button.disabled = true;
  try {
    await api.person(prefs.name);
    const response = await fetch(`/api/challenge/${encodeURIComponent(game)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: prefs.name }),
    });
    const data = await response.json();
    if (!response.ok) throw Object.assign(new Error(data.message), { key: data.key, params: data.params, code: data.code });
    location.assign(data.url);
  } catch (error) {
    failed = errorText(error);
    button.disabled = false;
    draw();
  }
}

function draw() {
  clear(box);
  const name = GAME_IDS.includes(game) ? t(`game.${game}.name`) : game;
  box.append(h("h1", { class: "display small" }, fmt(pick(W.challengeOf), { game: name, day })),
    h("nav", { class: "ratings-games", "aria-label": pick(W.challenge) },
      GAME_IDS.map((id) => h("a", { href: `/challenge/${id}`, "aria-current": id === game ? "page" : null, class: "button quiet" }, t(`game.${id}.name`)))),
    h("p", {}, fmt(pick(W.challengeLead), { deals: DEALS[game] || "" })));
  if (today === null || day === today) {
    if (prefs.name) box.append(h("p", {}, h("button", { type: "button", class: "button", onclick: (e) => play(e.currentTarget) }, pick(W.play))));
    else box.append(h("p", {}, pick(W.needName)), nameField());
  }
  if (failed) box.append(h("p", { class: "form-error", role: "alert" }, failed));
  box.append(h("h2", {}, pick(W.standings)));
  if (standings && !standings.length) box.append(h("p", { class: "muted" }, pick(W.noStandings)));
  if (standings && standings.length) {
    const count = Math.max(...standings.map((s) => s.deals.length));
    box.append(h("div", { class: "table-scroll" }, h("table", { class: "sheet challenge-standings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, pick(W.place)), h("th", { scope: "col" }, pick(W.name)),
        h("th", { scope: "col" }, pick(W.percent)),
        Array.from({ length: count }, (_, i) => h("th", { scope: "col" }, fmt(pick(W.deal), { n: i + 1 }))))),
      h("tbody", {}, standings.map((s, i) => h("tr", { class: s.name === prefs.name ? "mine" : "" },
        h("td", {}, String(i + 1)), h("th", { scope: "row" }, h("a", { href: `/people/${encodeURIComponent(s.name)}` }, s.name)),
        h("td", {}, `${s.percent} %`), s.deals.map((d) => h("td", {}, d === null ? "–" : `${Math.round(d)} %`))))))));
  }
  box.append(h("h2", {}, pick(W.spread)));
  if (spreadClosed) box.append(h("p", { class: "muted" }, pick(W.spreadSecret)));
  if (spread) {
    box.append(h("p", { class: "muted small" }, pick(W.spreadNote)));
    box.append(h("div", { class: "table-scroll" }, h("table", { class: "sheet challenge-spread" },
      h("thead", {}, h("tr", {}, [W.day, W.yours, W.place, W.results, W.best].map((k, i) => h("th", { scope: "col" }, i === 0 ? "" : pick(k))))),
      h("tbody", {}, spread.deals.map((d) => h("tr", {},
        h("th", { scope: "row" }, fmt(pick(W.deal), { n: d.deal })),
        h("td", {}, d.mine === null ? "–" : String(d.mine)),
        h("td", {}, d.place === null ? "–" : fmt(pick(W.placeOf), { place: d.place, count: d.results.length })),
        h("td", {}, d.results.join(" · ")),
        h("td", {}, d.best ? h("a", { href: `/${game}?t=${encodeURIComponent(d.best.table)}&replay=${d.deal}` }, d.best.name) : "–")))))));
    const mine = spread.deals.find((d) => d.table);
    if (mine) box.append(h("p", {}, h("a", { href: `/${game}?t=${mine.table}` }, pick(W.review))));
  }
  const before = new Date(`${day === "today" ? today || new Date().toISOString().slice(0, 10) : day}T12:00:00Z`);
  before.setUTCDate(before.getUTCDate() - 1);
  box.append(h("p", {}, h("a", { href: `/challenge/${game}/${before.toISOString().slice(0, 10)}` }, pick(W.previous))));
}

async function load() {
  try {
    const [list, todays] = await Promise.all([
      getJSON(`/api/challenge/${encodeURIComponent(game)}/${encodeURIComponent(day)}`),
      getJSON("/api/challenge").catch(() => null),
    ]);
    standings = list;
    if (todays) { today = todays.day; Object.entries(todays.games).forEach(([id, c]) => { DEALS[id] = c.deals; }); }
    if (day === "today" && today) day = today;
  } catch (error) {
    failed = errorText(error);
  }
  try {
    spread = await getJSON(`/api/challenge/${encodeURIComponent(game)}/${encodeURIComponent(day)}/deals?name=${encodeURIComponent(prefs.name || "")}`);
    if (spread.closed) { spread = null; spreadClosed = true; }
  } catch {
    spreadClosed = true;
  }
  draw();
}

draw();
onLangChange(draw);
load();
