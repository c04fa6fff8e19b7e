// Taking a seat without ever putting its secret in an address a person can copy.
//
// A one-time link (`?t=<table>&claim=<seat>.<secret>`, from making a table, "move to another device"
// or "play again") is spent as soon as the page opens: the server answers with an HttpOnly cookie
// scoped to the table's socket, and the address bar is put back to the bare table address.  The
// socket's hello then carries no secret: the cookie is the seat.  A copied table address opened in
// another browser has no cookie, so it watches.  An invitation to an open seat (`join`/`invite`)
// does the same once the person says yes.

import { api, ApiError } from "./api.js";
import { h, openDialog, toast } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { errorText } from "./refusals.js";
import { prefs, rememberSeat, savePrefs } from "./prefs.js";

const tableAddress = (tableId) => `${location.pathname}?t=${encodeURIComponent(tableId)}`;

// Drop any secret from the address bar (a one-time claim, or an old "#seat=..&token=.." link).
function cleanAddress(tableId) {
  const params = new URLSearchParams(location.search);
  if (params.has("claim") || location.hash.includes("token=")) history.replaceState(null, "", tableAddress(tableId));
}

// Spend a one-time claim in the address, if there is one.  Resolves once the seat is this browser's
// (or the claim was refused: then the page watches and says why).
export async function claimFromAddress(tableId) {
  const claim = new URLSearchParams(location.search).get("claim");
  cleanAddress(tableId);
  if (!claim) return null;
  try {
    const answer = await api.claim(tableId, claim);
    rememberSeat(tableId, answer.seat);
    return answer.seat;
  } catch (error) {
    seatTakenDialog(tableId, error, null);
    return null;
  }
}

// The late arrival: the seat was taken first.  Watch, or take another open seat with the same invitation.
export async function seatTakenDialog(tableId, error, invite, onSeated) {
  let info = null;
  try { info = await api.table(tableId); } catch { /* the table's address still works for watching */ }
  const open = info && invite ? info.seats.filter((s) => s.kind === "open") : [];
  const taken = error instanceof ApiError && error.code === "conflict";
  const dialog = openDialog(t("seat.takenTitle"), h("div", { class: "seat-taken", "data-refused": "seat" },
    h("p", {}, taken ? t(open.length ? "seat.takenText" : "seat.takenWatch") : errorText(error)),
    h("div", { class: "dialog-actions" },
      open.map((s) => h("button", {
        type: "button", class: "button", "data-take": s.seat,
        onclick: async () => {
          dialog.close();
          await joinSeat(tableId, s.seat, invite, prefs.name || null, onSeated);
        },
      }, t("lobby.take", { seat: seatName(s.seat) }))),
      h("button", { type: "button", class: "button primary", "data-action": "watch", onclick: () => dialog.close() }, t("join.watch")))),
  { closeLabel: t("join.watch") });
  return dialog;
}

// Take an open seat with an invitation; the answer's cookie holds the seat.  Calls onSeated(seat).
export async function joinSeat(tableId, seat, invite, name, onSeated) {
  try {
    const seated = await api.join(tableId, seat, invite, name);
    rememberSeat(tableId, seated.seat);
    if (onSeated) onSeated(seated.seat);
    return seated.seat;
  } catch (error) {
    if (error instanceof ApiError && error.key.startsWith("server.seat_taken")) {
      seatTakenDialog(tableId, error, invite, onSeated);
    } else {
      toast(errorText(error), "error");
    }
    return null;
  }
}

// The "take this seat?" question an invitation link asks (name, then take or watch).
export async function offerSeat(tableId, game, seat, invite, onSeated) {
  cleanAddress(tableId);
  let info;
  try { info = await api.table(tableId); } catch { return; }
  const wanted = info.seats.find((s) => s.seat === seat);
  if (!wanted || info.status === "over") return;
  if (wanted.kind !== "open") {
    seatTakenDialog(tableId, new ApiError("conflict", t("seat.takenSeat", { seat: seatName(seat) }), 409), invite, onSeated);
    return;
  }
  const nameInput = h("input", { id: "join-name", type: "text", maxlength: 40, value: prefs.name || "", placeholder: t("name.placeholder") });
  const dialog = openDialog(t("join.title"), h("form", {
    class: "join",
    onsubmit: async (event) => {
      event.preventDefault();
      const name = nameInput.value.trim();
      if (name) savePrefs({ name });
      dialog.close();
      await joinSeat(tableId, seat, invite, name || null, onSeated);
    },
  },
  h("p", {}, t("join.text", { seat: seatName(seat), game: t(`game.${game}.name`) })),
  h("div", { class: "option" }, h("label", { for: "join-name" }, t("name.label")), nameInput),
  h("div", { class: "dialog-actions" },
    h("button", { type: "submit", class: "button primary", "data-action": "take-seat" }, t("join.take")),
    h("button", { type: "button", class: "button quiet", onclick: () => dialog.close() }, t("join.watch")))),
  { closeLabel: t("join.watch") });
}
