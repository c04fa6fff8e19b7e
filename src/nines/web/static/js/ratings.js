// A game's leaderboard: settled ratings, best first; computer players marked.

import { GAME_IDS, startPage } from "./chrome.js";
import { clear, h } from "./dom.js";
import { onLangChange, pick, t } from "./i18n.js";
import { W, fmt, getJSON } from "./standing.js";

const main = startPage("ratings");
const box = h("section", { class: "panel stats ratings" });
main.append(box);
const game = decodeURIComponent(location.pathname.split("/")[2] || "neuf");
let rows = null;
let failed = "";

function draw() {
  clear(box);
  const name = GAME_IDS.includes(game) ? t(`game.${game}.name`) : game;
  box.append(
    h("h1", { class: "display small" }, fmt(pick(W.ratingsOf), { game: name })),
    h("nav", { class: "ratings-games", "aria-label": pick(W.ratings) },
      GAME_IDS.map((id) => h("a", { href: `/ratings/${id}`, "aria-current": id === game ? "page" : null, class: "button quiet" }, t(`game.${id}.name`)))),
    h("p", { class: "muted small" }, pick(W.ratingsNote)),
  );
  if (failed) { box.append(h("p", { class: "form-error" }, failed)); return; }
  if (!rows) return;
  if (!rows.length) { box.append(h("p", { class: "muted" }, pick(W.noRatings))); return; }
  box.append(h("div", { class: "table-scroll" }, h("table", { class: "sheet ratings-table" },
    h("thead", {}, h("tr", {}, [W.place, W.name, W.rating, W.deviation, W.matches].map((k) => h("th", { scope: "col" }, pick(k))))),
    h("tbody", {}, rows.map((r, i) => h("tr", { class: r.computer ? "computer" : "" },
      h("td", {}, String(i + 1)),
      h("th", { scope: "row" }, r.computer ? r.name : h("a", { href: `/people/${encodeURIComponent(r.name)}` }, r.name),
        r.computer ? h("span", { class: "muted small" }, ` (${pick(W.computer)})`) : null,
        r.provisional ? h("span", { class: "muted small" }, ` (${pick(W.provisional)})`) : null),
      h("td", {}, String(r.rating)), h("td", {}, String(r.deviation)), h("td", {}, String(r.matches))))))));
}

draw();
onLangChange(draw);
getJSON(`/api/ratings/${encodeURIComponent(game)}`).then((data) => { rows = data; draw(); }).catch((e) => { failed = e.message; draw(); });
