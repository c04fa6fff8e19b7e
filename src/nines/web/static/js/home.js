// The home page: the three games, a table to start, the open tables, the person's name (and on other devices).

import { api } from "./api.js";
import { startPage } from "./chrome.js";
import { nameField } from "./chrome.js";
import { clear, h, fill } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { lobbyList } from "./lobby.js";
import { setupForm } from "./setup.js";
import { errorText } from "./refusals.js";
import { namePanel, takeFromLink } from "./names.js";

const main = startPage("home");

const hero = h("section", { class: "hero" });
const gamesBox = h("section", { class: "games-strip", "aria-labelledby": "games-title" });
const startBox = h("section", { class: "panel", id: "start", "aria-labelledby": "start-title" });
const openBox = h("section", { class: "panel", id: "open-tables", "aria-labelledby": "open-title" });
main.append(hero, gamesBox, h("div", { class: "home-grid" }, startBox, openBox), namePanel());
takeFromLink(); // a one-time link from another device (/#take=CODE) gives this browser the name
window.addEventListener("hashchange", takeFromLink); // also opened on this page already

function drawStatic() {
  fill(hero, 
    h("p", { class: "kicker" }, t("home.kicker")),
    h("h1", { class: "display" }, t("home.title"), h("span", { class: "stop" }, ".")),
    h("p", { class: "promise" }, t("home.lead")),
    // the form that starts a table lies two screens down on a phone, under the three games: a way straight to it
    h("p", { class: "hero-actions" }, h("a", { class: "button primary", href: "#start", "data-go": "start" }, t("home.start"), " ↓")),
    nameField(),
    h("p", { class: "names-jump" }, h("a", { href: "#your-name" }, t("names.title"), " ↓")),
  );
  fill(gamesBox, 
    h("h2", { id: "games-title", class: "section-label" }, t("home.games")),
    h("div", { class: "game-cards" }, ["neuf", "elyigit", "rummy"].map((id) =>
      h("a", { class: `game-card ${id}`, href: `/${id}` },
        h("span", { class: "kicker" }, t(`game.${id}.kicker`)),
        h("strong", {}, t(`game.${id}.name`)),
        h("span", {}, t(`game.${id}.promise`)),
        h("span", { class: "more" }, t("home.readRules"), " →")))),
  );
}

drawStatic();
onLangChange(drawStatic);

const startTitle = h("h2", { id: "start-title", class: "section-label" });
const openTitle = h("h2", { id: "open-title", class: "section-label" });
const titles = () => { startTitle.textContent = t("home.start"); openTitle.textContent = t("home.open"); };
titles();
onLangChange(titles);
startBox.append(startTitle);
openBox.append(openTitle, lobbyList());

api.games().then((games) => startBox.append(setupForm(games))).catch((error) => startBox.append(h("p", { class: "form-error" }, errorText(error))));
