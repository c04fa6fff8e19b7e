// A person's profile: ratings per game and their course (a chart drawn by the server), challenge results,
// recent rated matches with their replays; to the browsers holding the name, a way to take it to another device.

import { GAME_IDS, startPage } from "./chrome.js";
import { clear, h } from "./dom.js";
import { lang, onLangChange, pick, t } from "./i18n.js";
import { namePanel } from "./names.js";
import { W, fmt, getJSON, signed } from "./standing.js";

const main = startPage("profile");
const box = h("section", { class: "panel stats profile" });
const name = decodeURIComponent(location.pathname.split("/")[2] || "");
// to a browser holding this name: a code or link that takes it to another device, and passkeys
main.append(box, namePanel({ only: name }));
let data = null;
let failed = "";
const gameName = (id) => (GAME_IDS.includes(id) ? t(`game.${id}.name`) : id);

function table(caption, heads, rows, cls) {
  return h("div", { class: "table-scroll" }, h("table", { class: `sheet ${cls}` },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", { scope: "col" }, pick(k))))),
    h("tbody", {}, rows)));
}

function draw() {
  clear(box);
  box.append(h("h1", { class: "display small" }, fmt(pick(W.profile), { name })));
  if (failed) { box.append(h("p", { class: "form-error" }, failed)); return; }
  if (!data) return;
  const games = Object.entries(data.ratings);
  if (!games.length && !data.challenges.length && !Object.keys(data.review || {}).length) { box.append(h("p", { class: "muted" }, pick(W.noProfile))); return; }
  if (games.length) {
    box.append(table(pick(W.ratings), [W.game, W.rating, W.deviation, W.matches], games.map(([id, r]) => h("tr", {},
      h("th", { scope: "row" }, h("a", { href: `/ratings/${id}` }, gameName(id))),
      h("td", {}, String(r.rating), r.provisional ? h("span", { class: "muted small" }, ` (${pick(W.provisional)})`) : null),
      h("td", {}, String(r.deviation)), h("td", {}, String(r.matches)))), "profile-ratings"));
    box.append(h("figure", { class: "profile-chart" },
      h("img", { src: `/api/people/${encodeURIComponent(name)}/chart.svg?lang=${lang}`, alt: fmt(pick(W.chartAlt), { name }), width: 640, height: 300 }),
      h("figcaption", { class: "muted small" }, pick(W.chart))));
  }
  if (data.challenges.length) {
    box.append(table(pick(W.challenges), [W.day, W.game, W.percent], data.challenges.map((c) => h("tr", {},
      h("th", { scope: "row" }, h("a", { href: c.url }, c.day)), h("td", {}, gameName(c.game)),
      h("td", {}, c.finished ? `${c.percent} %` : pick(W.unfinished)))), "profile-challenges"));
  }
  const reviewed = Object.entries(data.review || {}).filter(([, days]) => days.length);
  for (const [id, days] of reviewed) {
    box.append(table(`${pick(W.lost)} — ${gameName(id)}`, [W.day, W.dealsReviewed, W.lostPerDeal], days.map((d) => h("tr", {},
      h("th", { scope: "row" }, d.day), h("td", {}, String(d.deals)), h("td", {}, String(d.average_lost)))), "profile-review"));
  }
  if (data.matches.length) {
    box.append(table(pick(W.recent), [W.game, W.rating, W.change, W.replay], data.matches.map((m) => h("tr", {},
      h("th", { scope: "row" }, gameName(m.game)), h("td", {}, String(m.rating)), h("td", {}, signed(m.change)),
      h("td", {}, h("a", { href: m.url }, `${pick(W.replay)} ${m.at.slice(0, 10)}`)))), "profile-matches"));
  }
}

draw();
onLangChange(draw);
getJSON(`/api/people/${encodeURIComponent(name)}/profile`).then((d) => { data = d; draw(); }).catch((e) => { failed = e.message; draw(); });
