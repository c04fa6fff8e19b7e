// The frame around every page: the top bar (home, games, statistics, name, language) and the footer.

import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { applyBodyPrefs, prefs, savePrefs } from "./prefs.js";
import { errorText } from "./refusals.js";

export const GAME_IDS = ["neuf", "elyigit", "rummy"];

export function topBar(current) {
  const bar = h("header", { class: "topbar" });
  const draw = () => {
    clear(bar);
    bar.append(
      h("a", { class: "brand", href: "/", "aria-label": "Nines" }, h("span", { class: "brand-nine" }, "9"), h("span", { class: "brand-word" }, "Nines")),
      h("nav", { class: "topnav", "aria-label": "Nines" },
        ...GAME_IDS.map((id) => h("a", { href: `/${id}`, class: current === id ? "current" : "" },
          h("span", { class: "long" }, t(`game.${id}.name`)), h("span", { class: "short", "aria-hidden": "true" }, t(`game.${id}.short`)))),
        h("a", { href: "/stats", class: current === "stats" ? "current" : "" },
          h("span", { class: "long" }, t("nav.stats")), h("span", { class: "short", "aria-hidden": "true" }, t("nav.statsShort")))),
      h("button", {
        class: "lang-switch", type: "button", title: t("nav.lang"), "aria-label": t("nav.lang"),
        onclick: () => setLang(lang === "fr" ? "en" : "fr"),
      }, t("nav.langShort")),
    );
  };
  draw();
  onLangChange(draw);
  return bar;
}

export function footer() {
  const foot = h("footer", { class: "footer" });
  const draw = () => {
    clear(foot);
    foot.append(h("p", {}, "Nines — ", t("site.tagline")));
  };
  draw();
  onLangChange(draw);
  return foot;
}

// The name a person plays under: kept in this browser and announced to the server (statistics are by name).
export function nameField() {
  const box = h("form", { class: "name-field", onsubmit: (e) => { e.preventDefault(); save(); } });
  const input = h("input", { id: "person-name", name: "name", maxlength: 40, autocomplete: "nickname" });
  input.value = prefs.name || "";
  const label = h("label", { for: "person-name" });
  const button = h("button", { type: "submit", class: "button quiet" });
  let saving = null; // the change event and the submit of one edit save once
  const draw = () => {
    label.textContent = t("name.label");
    input.placeholder = t("name.placeholder");
    button.textContent = t("name.save");
  };
  async function save() {
    const name = input.value.trim();
    if (!name || name === saving) return;
    saving = name;
    setTimeout(() => { saving = null; }, 500);
    savePrefs({ name });
    try {
      await api.person(name);
      toast(t("name.saved", { name }));
      document.dispatchEvent(new CustomEvent("nines:name", { detail: name }));
    } catch (error) {
      toast(errorText(error), "error");
    }
  }
  input.addEventListener("change", save);
  draw();
  onLangChange(draw);
  box.append(label, h("div", { class: "name-row" }, input, button));
  return box;
}

export function startPage(current) {
  applyBodyPrefs();
  const main = h("main", { id: "main", class: "main" });
  document.body.append(topBar(current), main, footer());
  return main;
}
