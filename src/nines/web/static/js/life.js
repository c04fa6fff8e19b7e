// A table's life on the page: the running clock of the seat to act, the stand-in mark, "move to another
// device", and "play again" once the match is over.  The table shell (table.js) calls these; the server
// decides everything (the clock shown here only counts down what the last state message said).

import { copyText, h, openDialog, toast } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { doneText } from "./moves.js";

// -- the clock ----------------------------------------------------------------------------------------

// The clock of the seat to act, counting down between state messages.
export class TurnClock {
  constructor() {
    this.el = h("span", { class: "turn-clock", role: "timer", "aria-live": "off", hidden: true });
    this.deadline = null;
    this.timer = null;
  }

  update(message, seatLabel) {
    const clock = message && message.table.status === "playing" ? message.table.clock : null;
    clearInterval(this.timer);
    if (!clock) {
      this.deadline = null;
      this.el.hidden = true;
      return this.el;
    }
    this.deadline = performance.now() + clock.left_ms;
    this.el.hidden = false;
    this.el.dataset.clockSeat = clock.seat;
    this.mine = clock.seat === message.you;
    this.who = this.mine ? t("seat.you") : seatLabel(clock.seat);
    this.tick();
    this.timer = setInterval(() => this.tick(), 250);
    return this.el;
  }

  tick() {
    if (this.deadline === null) return;
    const left = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    this.el.textContent = `${this.who} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    this.el.setAttribute("aria-label", this.mine ? t("clock.leftYou", { n: left }) : t("clock.left", { name: this.who, n: left }));
    this.el.classList.toggle("low", left <= 5);
    if (left === 0) clearInterval(this.timer);
  }
}

// The home page's choice of a clock: off, 20, 45 or 90 seconds a decision.
export const CLOCKS = [null, 20, 45, 90];

export function clockOption(state) {
  const id = `clock-${state.game.id}`;
  const select = h("select", { id, name: "clock", "aria-describedby": `${id}-help` },
    CLOCKS.map((s) => h("option", { value: s ?? "", selected: s === state.clock }, s ? t("setup.clockS", { n: s }) : t("setup.clockOff"))));
  select.addEventListener("change", () => { state.clock = select.value ? Number(select.value) : null; });
  return h("div", { class: "option" }, h("label", { for: id }, t("setup.clock")), select,
    h("small", { id: `${id}-help`, class: "muted" }, t("setup.clockHelp")));
}

// -- stand-ins ---------------------------------------------------------------------------------------

// The mark beside a seat played by a stand-in (its person is away).
export function standInMark(seat) {
  return seat.stand_in ? h("span", { class: "stand-in-mark", title: t("standIn.title") }, t("standIn.mark")) : null;
}

// A line saying a stand-in moved for someone (out of time or away); it stays until that person's own
// next move, so a stand-in's move is not lost among the computer players' moves that follow it.
let standInShown = null; // { table, by, action }

export function standInNotice(message, seatLabel) {
  const last = message.last;
  const table = message.table.id;
  if (standInShown && standInShown.table !== table) standInShown = null;
  if (last && last.stand_in) standInShown = { table, by: last.by, action: last.action };
  else if (last && standInShown && last.by === standInShown.by) standInShown = null;
  if (!standInShown || message.table.status === "over") return null;
  return h("div", { class: "notice stand-in", "data-stand-in": standInShown.by },
    standInShown.by === message.you ? t("standIn.movedYou", { action: doneText(standInShown.action) })
      : t("standIn.moved", { name: seatLabel(standInShown.by), action: doneText(standInShown.action) }));
}

// -- another device ----------------------------------------------------------------------------------

export function deviceLinkRow(shell) {
  if (!shell.message || !shell.message.you || shell.message.table.status === "over") return null;
  return h("div", { class: "link-row device" },
    h("span", { class: "label" }, t("device.label")),
    h("button", { type: "button", class: "button small", "data-tool": "device", onclick: () => shell.socket.send({ type: "device_link" }) },
      t("device.make")));
}

export function showDeviceLink(message) {
  const url = new URL(message.url, location.origin).href;
  openDialog(t("device.title"), h("div", { class: "share" },
    h("p", {}, t("device.text")),
    h("div", { class: "link-row", "data-device-link": "" },
      h("input", { type: "text", readonly: true, value: url, "aria-label": t("device.label"), onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", onclick: () => copyText(url).then(() => toast(t("share.copied"))) }, t("share.copy")))),
  { closeLabel: t("summary.continue") });
}

// -- play again --------------------------------------------------------------------------------------

// What the "match over" notice offers: play again (each seated person is asked), or watch the next match.
export function againActions(shell) {
  const { table, you } = shell.message;
  if (table.status !== "over") return [];
  const again = table.again;
  const next = again ? `/${shell.game}?t=${encodeURIComponent(again.table)}` : null;
  if (!you) return next ? [h("a", { class: "button", href: next, "data-again": "watch" }, t("again.watch"))] : [];
  const answer = again ? again.answers[you] : null;
  if (answer === "accepted") return [h("a", { class: "button primary", href: next, "data-again": "go" }, t("again.go"))];
  const ask = (accept) => shell.socket.send({ type: "again", accept });
  const others = again ? Object.entries(again.answers).filter(([seat, a]) => seat !== you && a === "accepted").map(([seat]) => shell.context().seatLabel(seat)) : [];
  return [
    others.length ? h("span", { class: "again-asked" }, t("again.asked", { names: others.join(", ") })) : null,
    h("button", { type: "button", class: "button primary", "data-again": "yes", onclick: () => ask(true) }, t("again.yes")),
    again && answer !== "declined" ? h("button", { type: "button", class: "button quiet", "data-again": "no", onclick: () => ask(false) }, t("again.no")) : null,
  ];
}

export function onAgain(message) {
  if (message.url) location.assign(message.url);
  else toast(t("again.declined"));
}

// The seats still waiting for someone, named (for the waiting notice).
export function openSeatsText(table) {
  return table.seats.filter((s) => s.kind === "open").map((s) => seatName(s.seat)).join(", ");
}
