// A game's page, in the spirit of seed 001: the title and its promise, the table, then how to play and the history.

import { api } from "./api.js";
import { startPage } from "./chrome.js";
import { clear, h, fill } from "./dom.js";
import { lang, onLangChange, t } from "./i18n.js";
import { setupForm } from "./setup.js";
import { TableShell } from "./table.js";

const game = location.pathname.replace(/^\/+|\/+$/g, "").split("/")[0];
const tableId = new URLSearchParams(location.search).get("t");
const main = startPage(game);
main.classList.add(`page-${game}`);

const hero = h("section", { class: "game-hero" });
const tableSection = h("section", { class: "table-section", id: "table", "aria-label": t(`game.${game}.name`) });
const how = h("section", { class: "prose", id: "how" });
const history = h("section", { class: "prose", id: "history" });
main.append(hero, tableSection, how, history);

let content = null;

function proseSection(box, number, label, part) {
  fill(box, 
    h("div", { class: "section-head" }, h("span", { class: "section-num" }, number), h("span", {}, label)),
    h("h2", { class: "display medium" }, part.heading[0], h("br"), h("em", {}, part.heading[1])),
    part.intro ? h("p", { class: "intro" }, part.intro) : null,
    h("div", { class: "prose-grid" }, part.items.map(([title, text]) => h("article", {}, h("h3", {}, title), h("p", {}, text)))),
  );
}

function drawText() {
  document.title = `${t(`game.${game}.name`)} — Nines`;
  fill(hero, 
    h("p", { class: "kicker" }, t(`game.${game}.kicker`)),
    h("h1", { class: "display" }, content ? content[lang].title : t(`game.${game}.name`), h("span", { class: "stop" }, ".")),
    h("p", { class: "promise" }, t(`game.${game}.promise`)),
  );
  if (!content) return;
  const words = lang === "fr" ? ["Comment jouer", "Histoire et variantes"] : ["How to play", "History & variants"];
  proseSection(how, "01", words[0], content[lang].how);
  proseSection(history, "02", words[1], content[lang].history);
}

async function boot() {
  try {
    content = (await import(`./content/${game}.js`)).default;
  } catch {
    content = null;
  }
  drawText();
  onLangChange(drawText);
  if (tableId) {
    main.classList.add("has-table");
    const renderer = (await import(`./games/${game}.js`)).default;
    const shell = new TableShell(tableSection, renderer, game, tableId);
    shell.start();
    return;
  }
  const games = await api.games();
  const mine = games.filter((g) => g.id === game);
  if (!mine.length) {
    tableSection.append(h("p", { class: "notice" }, t("game.unavailable")));
    return;
  }
  const label = h("h2", { class: "section-label" }, t("home.start"));
  onLangChange(() => { label.textContent = t("home.start"); });
  tableSection.append(h("div", { class: "panel" }, label, setupForm(mine, { fixed: game })));
}

boot();
