// The lobby on the home page: public tables with open seats (take one), and public tables to watch,
// listed apart, each with how long ago it last moved.  Private tables are never listed.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { onLangChange, seatName, t } from "./i18n.js";
import { prefs, seatFor } from "./prefs.js";
import { playerLabel } from "./labels.js";
import { joinSeat } from "./seating.js";
import { errorText } from "./refusals.js";

export function ago(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 60) return t("lobby.agoS", { n: seconds });
  if (seconds < 3600) return t("lobby.agoM", { n: Math.floor(seconds / 60) });
  return t("lobby.agoH", { n: Math.floor(seconds / 3600) });
}

export function lobbyList() {
  const box = h("div", { class: "lobby", "aria-live": "polite" });
  let tables = [];

  const address = (table) => `/${table.game}?t=${encodeURIComponent(table.id)}`;

  async function take(table, seat) {
    // a listed table with open seats is public: its invitation comes with the listing
    const taken = await joinSeat(table.id, seat, table.invite, prefs.name || null, () => window.location.assign(address(table)));
    if (!taken) refresh();
  }

  function item(table, withSeats) {
    const open = withSeats ? table.seats.filter((s) => s.kind === "open") : [];
    return h("li", { class: "table-item", "data-table": table.id },
      h("div", { class: "table-item-head" },
        h("strong", {}, t(`game.${table.game}.name`)),
        h("span", { class: `status ${table.status}` }, t(`lobby.${table.status}`)),
        table.clock_s ? h("span", { class: "muted clock-s" }, `⏱ ${t("setup.clockS", { n: table.clock_s })}`) : null,
        // a table nobody has moved at yet (move 0) was opened that long ago: it has no "last move"
        h("span", { class: "muted moved-ago" }, t(table.seq ? "lobby.ago" : "lobby.opened", { ago: ago(table.moved_ago_s) }))),
      h("div", { class: "table-item-seats" },
        table.seats.map((s) => h("span", { class: `seat-pill ${s.kind}` },
          `${seatName(s.seat)}: `, s.kind === "open" ? t("seat.open") : s.kind === "bot" ? t("seat.bot", { name: playerLabel(s.bot) }) : (s.name || t("seat.guest"))))),
      h("div", { class: "table-item-actions" },
        seatFor(table.id) ? h("a", { class: "button small primary", href: address(table) }, t("lobby.back")) : null,
        open.map((s) => h("button", { type: "button", class: "button small", "data-take": s.seat, onclick: () => take(table, s.seat) }, t("lobby.take", { seat: seatName(s.seat) }))),
        h("a", { class: "button small quiet", href: address(table) }, t("lobby.watch"))));
  }

  function section(key, list, empty, withSeats) {
    return h("section", { class: `lobby-part ${key}`, "data-lobby": key },
      h("h3", { class: "lobby-title" }, t(`lobby.${key}`)),
      list.length ? h("ul", { class: "table-list" }, list.map((table) => item(table, withSeats))) : h("p", { class: "muted" }, empty));
  }

  function draw() {
    clear(box);
    const seats = tables.filter((table) => table.status === "waiting" && table.invite);
    const watch = tables.filter((table) => table.status === "playing");
    box.append(
      section("openSeats", seats, t("home.noOpen"), true),
      section("toWatch", watch, t("lobby.noWatch"), false));
  }

  async function refresh() {
    try {
      tables = await api.tables();
      draw();
    } catch (error) {
      box.textContent = errorText(error);
    }
  }

  refresh();
  setInterval(refresh, 5000);
  onLangChange(draw);
  return box;
}
