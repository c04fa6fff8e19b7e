// A page for an address that leads nowhere (a game that does not exist): said in the person's language,
// with the ways back.

import { startPage } from "./chrome.js";
import { fill, h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

const main = startPage("");
const box = h("section", { class: "panel missing", "aria-labelledby": "missing-title" });
main.append(box);

function draw() {
  document.title = `${t("missing.title")} — Nines`;
  fill(box,
    h("h1", { class: "display small", id: "missing-title" }, t("missing.title")),
    h("p", { class: "promise" }, t("missing.game")),
    h("ul", { class: "missing-links" },
      ["neuf", "elyigit", "rummy"].map((id) => h("li", {}, h("a", { href: `/${id}` }, t(`game.${id}.name`))))),
    h("p", {}, h("a", { class: "button primary", href: "/" }, t("missing.home"))));
}

draw();
onLangChange(draw);
