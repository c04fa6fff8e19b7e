// A live table: the socket to the server, the shell around the game (status, tools, dialogs) and the game's own drawing.
//
// The server is authoritative: this page only shows the view it receives and sends moves in their text
// form with the sequence number it last saw.  Each game module (games/<id>.js) draws the felt.

import { api, named } from "./api.js";
import { StateFollower } from "./delta.js";
import { $, clear, copyText, h, openDialog, toast, fill } from "./dom.js";
import { LANGS, cardName, lang, listText, onLangChange, seatName, setLang, t } from "./i18n.js";
import { prefs, savePrefs } from "./prefs.js";
import { claimFromAddress, offerSeat } from "./seating.js";
import { TurnClock, againActions, deviceLinkRow, onAgain, showDeviceLink, standInMark, standInNotice } from "./life.js";
import { SPEEDS } from "./setup.js";
import { playerLabel } from "./labels.js";
import { afterMatch, ratingChanges } from "./standing.js";
import { errorText, hintText, refusalText } from "./refusals.js";
import { loadReview, reviewPanel, reviewTitle, stepValues } from "./review.js";
import { someoneDid } from "./moves.js";

// -- the socket ------------------------------------------------------------------------------------

export class TableSocket {
  constructor(tableId, credentials, handlers) {
    this.tableId = tableId;
    this.credentials = credentials;
    this.handlers = handlers;
    this.retry = 0;
    this.stopped = false;
    this.ws = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const hello = { type: "hello" };
      if (this.credentials) Object.assign(hello, { seat: this.credentials.seat, token: this.credentials.token });
      // the name this browser holds: a table of today's challenge is watched only by someone who has played it
      else if (prefs.name) hello.name = prefs.name;
      ws.send(JSON.stringify(hello));
      this.handlers.onOpen();
    };
    const follower = new StateFollower(); // patches after each move, made whole here
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      message = follower.receive(message, () => ws.send(JSON.stringify({ type: "resync" })));
      if (message) this.handlers.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws || this.stopped) return;
      this.handlers.onClose(event);
      if (event.code === 4403 || event.code === 4400) return; // refused: the handler decides what next
      const wait = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => { if (!this.stopped && this.ws === ws) this.open(); }, wait);
    };
  }

  reopen(credentials) {
    this.credentials = credentials;
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    this.open();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}

// The seat is held by an HttpOnly cookie for the table's socket (see seating.js): the page never holds
// its secret, so the hello carries none.  Programs may still say hello with a seat and its token.
export function credentialsFor() {
  return null;
}

// -- the shell -------------------------------------------------------------------------------------

export class TableShell {
  constructor(root, renderer, game, tableId) {
    this.root = root;
    this.renderer = renderer;
    this.game = game;
    this.tableId = tableId;
    this.message = null; // the last state message
    this.hint = null;
    this.summarySeen = undefined;
    this.connection = "connecting";
    this.autoTimer = null;
    this.lastAutoSeq = -1;
    this.build();
    this.credentials = credentialsFor(tableId);
    this.clock = new TurnClock();
    this.socket = new TableSocket(tableId, this.credentials, {
      onOpen: () => { this.connection = "open"; this.drawStatus(); },
      onClose: (event) => this.onClose(event),
      onMessage: (message) => this.onMessage(message),
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
    onLangChange(() => this.draw());
  }

  // The play column (felt, then the action bar under the hand) is sized to end at the bottom of the screen, so the
  // hand and the controls of every decision are in view without scrolling; scores and seats sit beside it on a
  // wide screen and below it on a phone, the page's prose below everything.
  build() {
    this.statusEl = h("div", { class: "status-line", role: "status", "aria-live": "polite" });
    this.toolbar = h("div", { class: "toolbar", role: "toolbar", id: `tools-${this.tableId}` });
    this.toolsToggle = h("button", {
      type: "button", class: "tool tools-toggle", "aria-expanded": "false", "aria-controls": `tools-${this.tableId}`,
      onclick: () => this.toggleTools(),
    });
    this.feltBox = h("div", { class: "felt-box" });
    this.sideBox = h("aside", { class: "side", tabindex: "0" }); // it may scroll: the keyboard can reach it
    this.actionsBox = h("div", { class: "action-bar" });
    this.noticeBox = h("div", { class: "notice-box" });
    this.playBox = h("div", { class: "play-column" }, this.feltBox, this.actionsBox);
    // what others do and how many cards they hold, read out by screen readers (whose turn it is: the status line)
    this.announcer = h("div", { class: "sr-only", role: "log", "aria-live": "polite", "aria-atomic": "false" });
    this.shell = h("section", { class: `table-shell game-${this.game}`, "data-table": this.tableId },
      h("div", { class: "table-top" }, this.statusEl, h("div", { class: "tools" }, this.toolsToggle, this.toolbar)),
      this.noticeBox,
      h("div", { class: "table-main" }, this.playBox, this.sideBox),
      this.announcer);
    fill(this.root, this.shell);
    window.addEventListener("resize", () => this.fit());
    document.addEventListener("click", (event) => {
      if (!event.target.closest || !event.target.closest(".tools")) this.toggleTools(false);
    });
  }

  // The play column ends at the bottom of the screen (measured from the unscrolled page), measured once a frame
  // however many states arrive in it (a burst of computer moves must not force a layout each).
  fit() {
    const measure = () => {
      this.fitting = false;
      const top = this.playBox.getBoundingClientRect().top + window.scrollY;
      const height = Math.max(300, Math.floor(window.innerHeight - top - 6));
      this.shell.style.setProperty("--play-h", `${height}px`);
    };
    if (!this.fitted) { this.fitted = true; measure(); return; } // the first drawing fits at once
    if (this.fitting) return;
    this.fitting = true;
    requestAnimationFrame(measure);
  }

  // Another seat's move (a person's or a computer player's) and the cards each hand holds now.
  announce() {
    const { last, you, view } = this.message;
    if (!last || last.seat === you || !last.action) return;
    const ctx = this.context();
    const counts = view.hand_sizes
      ? Object.entries(view.hand_sizes).filter(([seat]) => seat !== you && view.seats.includes(seat))
        .map(([seat, n]) => t("announce.count", { name: ctx.seatLabel(seat), n })).join(", ")
      : "";
    const text = `${ctx.seatLabel(last.seat)}: ${moveText(last.action)}.${counts ? ` ${t("announce.counts", { counts })}` : ""}`;
    this.announcer.append(h("p", {}, text));
    while (this.announcer.childElementCount > 6) this.announcer.firstChild.remove();
  }

  toggleTools(open = this.toolsToggle.getAttribute("aria-expanded") !== "true") {
    this.toolsToggle.setAttribute("aria-expanded", String(open));
    this.toolbar.classList.toggle("open", open);
  }

  start() {
    const params = new URLSearchParams(location.search);
    const join = params.get("join");
    const invite = params.get("invite");
    // ?replay=N (a link to someone's play, as the challenge's best results): deal N's replay opens once the table shows
    this.replayWanted = Number(params.get("replay")) || null;
    // a one-time claim in the address is spent before the socket opens: its cookie is the seat
    claimFromAddress(this.tableId).finally(() => {
      if (join && invite) this.offerSeat(join, invite);
      this.socket.open();
      this.drawStatus();
    });
  }

  // -- messages ----------------------------------------------------------------------------------

  onMessage(message) {
    const handler = {
      state: (m) => this.onState(m),
      ack: () => {},
      hint: (m) => { this.hint = m; this.draw(); },
      error: (m) => this.onError(m),
      device_link: (m) => showDeviceLink(m),
      again: (m) => onAgain(m),
    }[message.type];
    if (handler) handler(message);
  }

  onState(message) {
    const previousSeq = this.message ? this.message.seq : -1;
    this.message = message;
    if (message.seq !== previousSeq) this.hint = null;
    this.connection = "open";
    this.draw();
    if (previousSeq >= 0 && message.seq !== previousSeq) this.announce();
    this.maybeSummary();
    this.maybeAutoplay();
    if (this.replayWanted) {
      const deal = this.replayWanted;
      this.replayWanted = null;
      this.showReplay(deal);
    }
  }

  onError(message) {
    if (message.code === "forbidden" && !this.message && this.credentials) {
      // this browser's seat key is not valid (any more): watch instead
      toast(t("table.forbidden"), "error");
      this.credentials = null;
      history.replaceState(null, "", `${location.pathname}${location.search}`);
      this.socket.reopen(null);
      return;
    }
    if (message.code === "not_found") {
      // a table that does not exist (any more): say so, and the ways on, instead of "Connecting…" for ever
      this.socket.stop();
      this.connection = "missing";
      this.drawStatus();
      fill(this.feltBox, h("div", { class: "notice missing-table" },
        h("h2", {}, t("table.notFoundTitle")),
        h("p", {}, t("table.notFoundText")),
        h("div", { class: "notice-actions" },
          h("a", { class: "button primary", href: `/${this.game}` }, t("table.newTable")),
          h("a", { class: "button quiet", href: "/" }, t("nav.home")))));
      return;
    }
    // the rule's reason (or the server's), in the page's language
    const ctx = this.message ? this.context() : null;
    const seatLabel = (seat) => (!ctx || seat === ctx.you ? seatName(seat) : ctx.seatLabel(seat));
    toast(refusalText(message, seatLabel, ctx ? ctx.you : null), "error");
  }

  onClose() {
    this.connection = "closed";
    this.drawStatus();
  }

  act(action) {
    if (!this.message) return;
    if (!this.socket.send({ type: "act", seq: this.message.seq, action })) toast(t("table.reconnecting"), "error");
  }

  askHint() {
    if (!this.message) return;
    this.hint = { pending: true, action: "", reason: t("table.hintAsking"), player: "" };
    this.drawActions();
    this.socket.send({ type: "hint", seq: this.message.seq });
  }

  // -- what the page shows -------------------------------------------------------------------------

  // The moves this page may offer: none while the table waits for people.
  legal() {
    return this.message && this.message.table.status !== "waiting" ? this.message.view.legal : [];
  }

  context(extra = {}) {
    const message = this.message;
    // a table waiting for people decides nothing yet: no move is offered (the rules may already hold some)
    const view = message.table.status === "waiting" ? { ...message.view, legal: [] } : message.view;
    const seats = message.table.seats;
    const ctx = {
      view,
      table: message.table,
      you: message.you,
      seq: message.seq,
      last: message.last,
      hint: this.hint && !this.hint.pending ? this.hint : null,
      hands: null,
      replay: false,
      seatInfo: (seat) => seats.find((s) => s.seat === seat),
      seatLabel: (seat) => {
        if (seat === message.you) return t("seat.you");
        const info = seats.find((s) => s.seat === seat);
        if (!info) return seatName(seat);
        if (info.kind === "human") return info.name || seatName(seat);
        return seatName(seat);
      },
      controls: (seat) => message.you !== null && message.table.status !== "waiting"
        && (seat === message.you || (view.acting_seat === message.you && view.to_act === seat)),
      act: (action) => this.act(action),
      redraw: () => this.draw(),
      refuse: (text) => toast(text, "error"),
      choose: (actions, describe) => this.choose(actions, describe),
    };
    return Object.assign(ctx, extra);
  }

  draw() {
    this.drawToolbar();
    this.drawStatus();
    if (!this.message) return;
    this.shell.dataset.seq = String(this.message.seq);
    // a focus the last drawing could not put back (the hand played out, the next deal not yet dealt) is
    // put back as soon as there is a card to hold it, unless the person has gone elsewhere meanwhile
    const focus = rememberFocus(this.shell) || (document.activeElement === document.body ? this.lostFocus : null);
    const drawn = this.renderer.render(this.context());
    fill(this.feltBox, drawn.felt);
    fill(this.sideBox, drawn.side, this.seatsPanel());
    this.sideBox.setAttribute("aria-label", t("table.scoresAndSeats"));
    this.drawn = drawn;
    this.drawActions();
    this.drawNotice();
    this.fit();
    this.lostFocus = restoreFocus(this.shell, focus) ? null : focus;
    // the person's turn with the focus nowhere (just arrived): the hand takes it, so the keys play at once
    const { view, you, table } = this.message;
    if (you && table.status === "playing" && (view.acting_seat ?? view.to_act) === you && document.activeElement === document.body
      && !document.querySelector("dialog[open]")) {
      const card = this.shell.querySelector(".hand.controlled button.card.legal") || this.shell.querySelector(".hand[data-seat] button.card");
      if (card) card.focus({ preventScroll: true });
    }
  }

  drawActions() {
    clear(this.actionsBox);
    if (!this.message) return;
    const drawn = this.drawn || {};
    if (drawn.actions) this.actionsBox.append(drawn.actions);
    if (this.hint) {
      const hint = this.hint;
      this.actionsBox.append(h("div", { class: "hint-box", role: "status" },
        hint.pending ? hint.reason : [
          h("strong", {}, t("table.hintFrom", { player: playerLabel(hint.player) }), ": "),
          // the computer player's reason in the page's language (or, lacking one, the move in its words)
          h("code", {}, hint.action), " — ", hintText(hint) || moveText(hint.action)]));
    }
    if (this.message.you && this.legal().length) this.actionsBox.append(this.commandBox());
  }

  commandBox() {
    const listId = `legal-${this.tableId}`;
    const input = h("input", {
      id: "command", class: "command", type: "text", list: listId, autocomplete: "off", spellcheck: "false",
      "aria-label": t("table.command"), placeholder: t("table.commandShort", { example: this.renderer.commandExample }),
      title: t("table.commandHelp", { example: this.renderer.commandExample }),
    });
    const list = h("datalist", { id: listId }, this.legal().slice(0, 200).map((a) => h("option", { value: a })));
    const form = h("form", {
      class: "command-form",
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (text) this.act(text);
        input.value = "";
      },
    }, input, list, h("button", { type: "submit", class: "button small" }, t("table.send")));
    return form;
  }

  drawStatus() {
    clear(this.statusEl);
    if (this.connection === "missing") {
      this.statusEl.append(t("table.notFoundTitle"));
      return;
    }
    if (this.connection === "closed") {
      this.statusEl.append(h("span", { class: "status-warn" }, t("table.reconnecting")));
      return;
    }
    if (!this.message) {
      this.statusEl.append(t("table.connecting"));
      return;
    }
    const { view, table, you } = this.message;
    const dealLabel = this.renderer.dealLabel(view);
    let text;
    if (table.status === "over") text = winnersText(table, this.context());
    else if (table.status === "waiting") text = waitingText(table);
    else {
      const acting = view.acting_seat ?? view.to_act;
      if (you && acting === you) {
        const prompt = this.renderer.prompt(this.context());
        text = prompt ? `${t("table.yourTurn")} — ${prompt}` : t("table.yourTurn");
      } else {
        // in words of the decision: "West is deciding whether to exchange", "North is bidding"
        const ctx = this.context();
        const name = ctx.seatLabel(acting);
        text = (this.renderer.turnText && this.renderer.turnText(ctx, name)) || t("table.turnOf", { name });
      }
    }
    const mine = you && (view.acting_seat ?? view.to_act) === you && table.status === "playing";
    this.statusEl.classList.toggle("my-turn", !!mine);
    this.statusEl.title = text;
    this.statusEl.append(h("span", { class: "deal-label" }, dealLabel), h("span", { class: "status-text" }, text),
      this.clock.update(this.message, (seat) => this.context().seatLabel(seat)));
  }

  drawToolbar() {
    clear(this.toolbar);
    this.toolbar.setAttribute("aria-label", t("table.tools"));
    fill(this.toolsToggle, t("table.tools"));
    const message = this.message;
    const button = (label, key, onclick, extra = {}) => h("button", {
      type: "button", class: "tool", ...extra, onclick: () => { this.toggleTools(false); onclick(); },
    }, label, key ? h("kbd", {}, key) : null);
    if (message) {
      if (this.renderer.hasTricks) this.toolbar.append(button(t("table.lastTrick"), "T", () => this.showLastTrick(), { "data-tool": "last" }));
      this.toolbar.append(button(t("table.sheet"), "G", () => this.showSheet(), { "data-tool": "sheet" }));
      if (this.renderer.previousDeal(message.view)) this.toolbar.append(button(t("table.summary"), null, () => this.showSummary(), { "data-tool": "summary" }));
      if (message.table.hints && message.you && message.table.status === "playing") {
        const mine = (message.view.acting_seat ?? message.view.to_act) === message.you;
        this.toolbar.append(button(t("table.hint"), "?", () => this.askHint(), { "data-tool": "hint", disabled: !mine }));
      }
      if (message.table.status !== "over") this.toolbar.append(button(t("table.share"), null, () => this.showShare(), { "data-tool": "share" }));
    }
    if (message && message.you && this.legal().length) {
      this.toolbar.append(button(t("table.command"), "/", () => this.focusCommand(), { "data-tool": "type" }));
    }
    this.toolbar.append(
      button(t("table.settings"), null, () => this.showSettings(), { "data-tool": "settings" }),
      button(t("table.keys"), null, () => this.showKeys(), { "data-tool": "keys" }));
  }

  drawNotice() {
    clear(this.noticeBox);
    const { table, you } = this.message;
    if (table.status === "over") {
      this.noticeBox.append(h("div", { class: "notice over" },
        h("strong", {}, t("table.over")), " ", winnersText(table, this.context()),
        afterMatch(this.tableId, this.game, table),
        h("div", { class: "notice-actions" },
          h("button", { type: "button", class: "button primary", "data-tool": "replay", onclick: () => this.showReplay() }, t("table.replay")),
          h("a", { class: "button", href: `/api/tables/${encodeURIComponent(this.tableId)}/record${named(prefs.name)}`, download: `nines-${this.game}-${this.tableId}.json` }, t("table.download")),
          ...(table.preset === "challenge" ? [] : againActions(this)),
          h("a", { class: "button quiet", href: `/${this.game}` }, t("table.newTable")))));
    } else if (table.status === "waiting") {
      this.noticeBox.append(h("div", { class: "notice waiting" }, `${waitingText(table)}. ${t("table.waitingWhy")}`, " ",
        h("button", { type: "button", class: "button small", onclick: () => this.showShare() }, t("table.share"))));
    }
    const standIn = standInNotice(this.message, (seat) => this.context().seatLabel(seat));
    if (standIn) this.noticeBox.append(standIn);
    if (!you) this.noticeBox.append(h("div", { class: "notice spectator" }, t("table.spectating")));
  }

  seatsPanel() {
    const { table } = this.message;
    return h("ul", { class: "seat-list" }, table.seats.map((seat) => h("li", { class: `seat-row ${seat.kind}` },
      h("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }),
      h("span", { class: "seat-row-seat" }, seatName(seat.seat)),
      h("span", { class: "seat-row-name" },
        seat.seat === this.message.you ? `${seat.name || t("seat.guest")} (${t("seat.you")})`
          : seat.kind === "open" ? t("seat.open") : seat.kind === "bot" ? t("seat.bot", { name: playerLabel(seat.bot) }) : (seat.name || t("seat.guest"))),
      standInMark(seat))));
  }

  // Back to the hand when what held the focus went away (a window closed over a table that was redrawn).
  focusHand() {
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const card = this.shell.querySelector(".hand[data-seat] button.card");
    if (card) card.focus();
  }

  // The typed move: always shown on a wide screen, opened from the tools on a phone.
  focusCommand() {
    this.shell.classList.add("typing");
    const input = $("#command", this.shell);
    if (input) input.focus();
  }

  // -- dialogs -------------------------------------------------------------------------------------

  showLastTrick() {
    if (!this.message || !this.renderer.lastTrick) return;
    openDialog(t("table.lastTrick"), this.renderer.lastTrick(this.context()), { closeLabel: t("summary.continue"), className: "last-trick-dialog" });
  }

  showSheet() {
    if (!this.message) return;
    openDialog(t("table.sheet"), this.renderer.sheet(this.context()), { closeLabel: t("summary.continue"), className: "sheet-dialog" });
  }

  showSummary(deal) {
    const chosen = deal || this.renderer.previousDeal(this.message.view);
    if (!chosen) return;
    const ctx = this.context();
    const { table, view } = this.message;
    // the last deal of a finished match: what the match changed in each person's rating too
    const last = table.status === "over" && chosen.number === this.renderer.previousDeal(view)?.number;
    const body = h("div", {}, this.renderer.summary(chosen, ctx), last ? ratingChanges(this.tableId, table, { heading: true }) : null,
      reviewPanel(this.tableId, chosen.number, null, { who: Object.assign((seat) => ctx.seatLabel(seat), { you: ctx.you }) }));
    const dialog = openDialog(t("table.summary"), body, {
      closeLabel: t("summary.continue"), className: "summary-dialog", onClose: () => setTimeout(() => this.focusHand(), 0),
    });
    body.append(h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "button primary", onclick: () => dialog.close() }, t("summary.continue"))));
  }

  maybeSummary() {
    const deal = this.renderer.previousDeal(this.message.view);
    const number = deal ? deal.number : null;
    if (this.summarySeen === undefined) {
      this.summarySeen = number; // just arrived (or came back): no window for a deal already finished
      return;
    }
    if (number !== null && number !== this.summarySeen) {
      this.summarySeen = number;
      if (!document.querySelector("dialog.summary-dialog")) this.showSummary(deal);
    }
  }

  maybeAutoplay() {
    clearTimeout(this.autoTimer);
    const { view, you, seq, table } = this.message;
    if (!prefs.autoplay || !you || table.status !== "playing" || view.legal.length !== 1) return;
    if (this.lastAutoSeq === seq) return;
    this.autoTimer = setTimeout(() => {
      if (!this.message || this.message.seq !== seq) return;
      this.lastAutoSeq = seq;
      this.act(view.legal[0]);
    }, 450);
  }

  showShare() {
    const { table, invite } = this.message;
    const origin = location.origin;
    const spectate = `${origin}/${this.game}?t=${encodeURIComponent(this.tableId)}`;
    const linkRow = (label, url, attrs = {}) => h("div", { class: "link-row", ...attrs },
      h("span", { class: "label" }, label),
      h("input", { type: "text", readonly: true, value: url, "aria-label": label, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", onclick: () => copyText(url).then(() => toast(t("share.copied"))) }, t("share.copy")));
    const open = table.seats.filter((s) => s.kind === "open");
    const body = h("div", { class: "share" },
      invite && open.length
        ? open.map((s) => linkRow(t("share.seat", { seat: seatName(s.seat) }),
          `${spectate}&join=${encodeURIComponent(s.seat)}&invite=${encodeURIComponent(invite)}`, { "data-invite": s.seat }))
        : h("p", { class: "muted" }, t("share.none")),
      linkRow(t("share.spectators"), spectate, { "data-spectate": "" }),
      deviceLinkRow(this));
    openDialog(t("share.title"), body, { closeLabel: t("summary.continue") });
  }

  showSettings() {
    const check = (key, label) => {
      const input = h("input", { type: "checkbox", id: `pref-${key}`, name: key, checked: !!prefs[key] });
      input.addEventListener("change", () => { savePrefs({ [key]: input.checked }); this.draw(); });
      return h("div", { class: "option check" }, input, h("label", { for: `pref-${key}` }, label));
    };
    const langSelect = h("select", { id: "pref-lang" }, LANGS.map((code) => h("option", { value: code, selected: code === lang }, code === "fr" ? "Français" : "English")));
    langSelect.addEventListener("change", () => setLang(langSelect.value));
    const current = this.message ? this.message.table.bot_delay_ms : prefs.speed;
    const speed = h("select", { id: "pref-speed", disabled: !(this.message && this.message.you) },
      SPEEDS.map(([name, ms]) => h("option", { value: ms, selected: ms === current }, t(`speed.${name}`))));
    if (!SPEEDS.some(([, ms]) => ms === current)) speed.append(h("option", { value: current, selected: true }, `${current} ms`));
    speed.addEventListener("change", () => {
      const ms = Number(speed.value);
      savePrefs({ speed: ms });
      if (this.message) this.socket.send({ type: "pace", seq: this.message.seq, delay_ms: ms });
    });
    openDialog(t("settings.title"), h("div", { class: "settings" },
      h("div", { class: "option" }, h("label", { for: "pref-lang" }, t("settings.lang")), langSelect),
      h("div", { class: "option" }, h("label", { for: "pref-speed" }, t("settings.speed")), speed),
      check("autoplay", t("settings.autoplay")),
      check("highlight", t("settings.highlight")),
      check("animations", t("settings.animations"))), { closeLabel: t("summary.continue") });
  }

  showKeys() {
    const rows = [
      ["← →", t("keys.arrows")],
      ["Enter", t("keys.enter")],
      ...(this.renderer.keyHelp ? this.renderer.keyHelp() : []),
      ["/", t("keys.command")],
      ...(this.renderer.hasTricks ? [["T", t("keys.last")]] : []),
      ["G", t("keys.sheet")],
      ["?", t("keys.hint")],
      ["Esc", t("keys.escape")],
    ];
    openDialog(t("keys.title"), h("dl", { class: "keys" }, rows.map(([key, text]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, text)])),
      { closeLabel: t("summary.continue") });
  }

  choose(actions, describe = (a) => a) {
    const dialog = openDialog(t("table.mustChoose"), h("div", { class: "choices" }, actions.map((action) =>
      h("button", { type: "button", class: "button", "data-action": action, onclick: () => { dialog.close(); this.act(action); } }, describe(action)))),
    { closeLabel: t("summary.continue") });
    const first = dialog.querySelector(".choices button");
    if (first) first.focus();
  }

  offerSeat(seat, invite) {
    offerSeat(this.tableId, this.game, seat, invite, () => {
      history.replaceState(null, "", `${location.pathname}?t=${encodeURIComponent(this.tableId)}`);
      this.summarySeen = undefined;
      this.message = null;
      this.socket.reopen(null); // the join's cookie holds the seat now
    });
  }

  async showReplay(first = 1) {
    const body = h("div", { class: "replay" }, t("replay.loading"));
    openDialog(t("replay.title"), body, { closeLabel: t("summary.continue"), className: "replay-dialog" });
    let data = null;
    let step = 0;
    let review = null;
    const load = async (deal) => {
      // refused because the server is working out other replays just now ("ask again in a moment"): asked again
      for (let tries = 1; ; tries += 1) {
        try {
          data = await api.replay(this.tableId, deal, prefs.name);
          break;
        } catch (error) {
          if (error.key !== "server.replay_busy" || tries >= 30) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
      step = 0;
      review = null;
      loadReview(this.tableId, deal).then((loaded) => { if (data.deal === deal) { review = loaded; drawFrame(); } }).catch(() => {});
      drawFrame();
    };
    const drawFrame = () => {
      const frame = data.frames[step];
      const ctx = this.context({
        view: frame.view, you: null, hands: frame.hands, replay: true, hint: null,
        last: frame.action ? { action: frame.action, seat: frame.seat } : null, act: () => {}, redraw: () => {},
      });
      const drawn = this.renderer.render(ctx);
      const dealSelect = h("select", { id: "replay-deal", "aria-label": t("replay.deal") },
        Array.from({ length: data.deals }, (_, i) => h("option", { value: i + 1, selected: i + 1 === data.deal }, `${t("replay.deal")} ${i + 1}`)));
      dealSelect.addEventListener("change", () => load(Number(dealSelect.value)));
      const go = (n) => { step = Math.max(0, Math.min(data.frames.length - 1, n)); drawFrame(); };
      const controls = h("div", { class: "replay-controls" },
        dealSelect,
        h("button", { type: "button", class: "button small", onclick: () => go(0) }, t("replay.first")),
        h("button", { type: "button", class: "button small", "data-step": "prev", onclick: () => go(step - 1) }, "◀ ", t("replay.prev")),
        h("span", { class: "replay-step" }, t("replay.step", { n: step, total: data.frames.length - 1 })),
        h("button", { type: "button", class: "button small", "data-step": "next", onclick: () => go(step + 1) }, t("replay.next"), " ▶"),
        h("button", { type: "button", class: "button small", onclick: () => go(data.frames.length - 1) }, t("replay.last")));
      // the person's own seat is "you" here as at the table; the card values before the felt (on a phone they sat
      // below the fold after every step)
      const shellCtx = this.message ? this.context() : null;
      const who = shellCtx ? Object.assign((seat) => shellCtx.seatLabel(seat), { you: shellCtx.you }) : seatName;
      fill(body, controls,
        frame.action ? h("p", { class: "replay-move", "data-move": frame.action }, someoneDid(who(frame.seat), frame.action, { you: !!this.message && frame.seat === this.message.you })) : null,
        stepValues(review, data.record, step, who),
        h("div", { class: `replay-felt game-${this.game}` }, drawn.felt),
        h("details", { class: "replay-review", open: true }, h("summary", {}, reviewTitle()), reviewPanel(this.tableId, data.deal, review, { heading: false, who })),
        h("details", { class: "replay-summary" }, h("summary", {}, t("table.summary")), this.renderer.summary(data.record, this.context())));
    };
    try { await load(first); } catch (error) { body.textContent = errorText(error); }
  }

  // -- keyboard ------------------------------------------------------------------------------------

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
    if (event.key === "Escape" && this.toolbar.classList.contains("open")) { this.toggleTools(false); this.toolsToggle.focus(); return; }
    if (typing || document.querySelector("dialog[open]")) return;
    if (!this.message) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (moveFocus(this.shell, event.key === "ArrowRight" ? 1 : -1)) event.preventDefault();
      return;
    }
    if (this.renderer.onKey && this.renderer.onKey(this.context(), event)) { event.preventDefault(); return; }
    const key = event.key.toLowerCase();
    const shortcuts = {
      "/": () => this.focusCommand(),
      t: () => this.showLastTrick(),
      g: () => this.showSheet(),
      "?": () => { if (this.message.table.hints) this.askHint(); },
    };
    if (shortcuts[key]) { event.preventDefault(); shortcuts[key](); }
  }
}

// Whom a table waits for: the seats still open (a friend invited, or a player asked to play again).
function waitingText(table) {
  const open = table.seats.filter((s) => s.kind === "open").map((s) => s.seat);
  if (!open.length) return t("table.waiting");
  const numbered = open.every((seat) => /^\d+$/.test(seat));
  return t(numbered ? "table.waitingForNumbered" : "table.waitingFor", { names: listText(open.map(seatName)), n: open.length });
}

function winnersText(table, ctx) {
  const names = table.winners.map((w) => (table.seats.some((s) => s.seat === w) ? ctx.seatLabel(w) : seatName(w))).join(", ");
  if (!names) return "";
  return table.winners.length > 1 ? t("table.winnersMany", { names }) : t("table.winners", { names });
}

// A move in words: "plays the 9 of hearts", "bids 6", "draws from the stock".
function moveText(action) {
  const [verb, ...rest] = action.split(" ");
  const card = (code) => cardName(code.split("=")[0]);
  const words = {
    play: () => t("move.play", { card: card(rest[0]) }),
    exchange: () => t("move.exchange"),
    keep: () => t("move.keep"),
    bid: () => t("move.bid", { n: rest[0] }),
    pass: () => t("move.pass"),
    trump: () => t("move.trump", { suit: t(`suitOne.${rest[0]}`) }),
    draw: () => t(rest[0] === "stock" ? "move.drawStock" : "move.drawDiscard"),
    lay: () => t("move.lay", { cards: rest.map(card).join(", ") }),
    extend: () => t("move.extend", { card: card(rest[1] || "") }),
    swap: () => t("move.swap", { card: card(rest[1] || "") }),
    discard: () => t("move.discard", { card: card(rest[0]) }),
  }[verb];
  return words ? words() : action;
}

function rememberFocus(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  return {
    code: active.dataset.code, index: active.dataset.index, action: active.dataset.action, tool: active.dataset.tool,
    group: active.closest("[data-seat]")?.dataset.seat,
  };
}

// After any move (mine or another's) the focus comes back to the same place: the same card, or the card now at
// the same position in the hand; a control that went away gives the focus to the hand.
function restoreFocus(root, focus) {
  if (!focus) return true;
  let el = null;
  if (focus.action) el = root.querySelector(`[data-action="${focus.action}"]`);
  if (!el && focus.code) {
    const group = focus.group ? root.querySelector(`.hand[data-seat="${focus.group}"]`) : root;
    const buttons = group ? [...group.querySelectorAll("button.card")] : [];
    el = buttons.find((b) => b.dataset.code === focus.code) || buttons[Math.min(Number(focus.index || 0), buttons.length - 1)] || null;
  }
  if (!el && focus.tool) el = root.querySelector(`[data-tool="${focus.tool}"]`);
  // a move's button that went away with the move (Keep, a bid): the hand takes the focus
  if (!el && (focus.action || focus.code)) el = root.querySelector(".hand[data-seat] button.card");
  if (el) el.focus();
  return !!el;
}

function moveFocus(root, step) {
  const buttons = [...root.querySelectorAll(".hand button.card")];
  if (!buttons.length) return false;
  const index = buttons.indexOf(document.activeElement);
  const next = index < 0 ? (step > 0 ? 0 : buttons.length - 1) : (index + step + buttons.length) % buttons.length;
  buttons[next].focus();
  return true;
}
