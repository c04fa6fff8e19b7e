// The list of open tables on the home page: take an open seat, or watch.

import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { onLangChange, seatName, t } from "./i18n.js";
import { prefs, rememberSeat, seatFor } from "./prefs.js";
import { playerLabel } from "./labels.js";

export function lobbyList() {
  const box = h("div", { class: "lobby", "aria-live": "polite" });
  let tables = [];

  async function take(table, seat) {
    // a listed table is public: its invitation comes with the listing
    try {
      const seated = await api.join(table.id, seat, table.invite, prefs.name || null);
      rememberSeat(table.id, seated.seat, seated.token);
      window.location.assign(`/${table.game}?t=${encodeURIComponent(table.id)}#seat=${seated.seat}&token=${seated.token}`);
    } catch (error) {
      toast(error.message, "error");
      refresh();
    }
  }

  function draw() {
    clear(box);
    if (!tables.length) {
      box.append(h("p", { class: "muted" }, t("home.noOpen")));
      return;
    }
    const list = h("ul", { class: "table-list" });
    for (const table of tables) {
      const open = table.seats.filter((s) => s.kind === "open");
      list.append(h("li", { class: "table-item", "data-table": table.id },
        h("div", { class: "table-item-head" },
          h("strong", {}, t(`game.${table.game}.name`)),
          h("span", { class: `status ${table.status}` }, t(`lobby.${table.status}`)),
          h("span", { class: "muted" }, t("lobby.seq", { n: table.seq }))),
        h("div", { class: "table-item-seats" },
          table.seats.map((s) => h("span", { class: `seat-pill ${s.kind}` },
            `${seatName(s.seat)}: `, s.kind === "open" ? t("seat.open") : s.kind === "bot" ? t("seat.bot", { name: playerLabel(s.bot) }) : (s.name || t("seat.guest"))))),
        h("div", { class: "table-item-actions" },
          seatFor(table.id) ? h("a", { class: "button small primary", href: `/${table.game}?t=${encodeURIComponent(table.id)}` }, t("lobby.back")) : null,
          open.map((s) => h("button", { type: "button", class: "button small", onclick: () => take(table, s.seat) }, t("lobby.take", { seat: seatName(s.seat) }))),
          h("a", { class: "button small quiet", href: `/${table.game}?t=${encodeURIComponent(table.id)}` }, t("lobby.watch")))));
    }
    box.append(list);
  }

  async function refresh() {
    try {
      tables = await api.tables();
      // the listing gives public tables' invitations so seats can be taken from here
      draw();
    } catch (error) {
      box.textContent = error.message;
    }
  }

  refresh();
  setInterval(refresh, 5000);
  onLangChange(draw);
  return box;
}
