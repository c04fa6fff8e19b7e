// A name on every device: the browser holding a name shows a one-time code (and its link) that gives the name to
// another browser, and may add a passkey; a browser without the name takes it with a code, or signs in with a
// passkey. The server gives each browser a secret of its own for the name (an HttpOnly cookie the page never reads).

import { api } from "./api.js";
import { copyText, fill, h, toast } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { prefs, savePrefs } from "./prefs.js";
import { errorText } from "./refusals.js";

const PASSKEYS = typeof window.PublicKeyCredential === "function" && window.isSecureContext && !!navigator.credentials;

// -- WebAuthn's binary fields, as base64url in the server's JSON --------------------------------------------

function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function base64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const described = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }));

function creationOptions(o) {
  return { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) }, excludeCredentials: described(o.excludeCredentials) };
}

function requestOptions(o) {
  return { ...o, challenge: bytes(o.challenge), allowCredentials: described(o.allowCredentials) };
}

function credentialJSON(credential) {
  const r = credential.response;
  const response = { clientDataJSON: base64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = base64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  }
  if (r.authenticatorData) {
    response.authenticatorData = base64url(r.authenticatorData);
    response.signature = base64url(r.signature);
    response.userHandle = r.userHandle ? base64url(r.userHandle) : null;
  }
  return { id: credential.id, rawId: base64url(credential.rawId), type: credential.type, response,
           authenticatorAttachment: credential.authenticatorAttachment || undefined };
}

// -- taking a name ------------------------------------------------------------------------------------------------

// This browser holds ``name`` now: remember it as the person's name, and say so.
function nowHeld(name) {
  savePrefs({ name });
  const field = document.getElementById("person-name");
  if (field) field.value = name;
  toast(t("names.taken", { name }));
  document.dispatchEvent(new CustomEvent("nines:name", { detail: name }));
}

export async function takeWithCode(code) {
  const { name } = await api.take(code);
  nowHeld(name);
  return name;
}

// The link a code comes with (``/#take=CODE``): spent as soon as the page opens, and gone from the address bar.
export function takeFromLink() {
  const found = /^#take=([A-Za-z0-9-]{1,32})$/.exec(location.hash);
  if (!found) return;
  history.replaceState(null, "", location.pathname + location.search);
  takeWithCode(found[1]).catch((error) => toast(errorText(error), "error"));
}

async function signInWithPasskey() {
  const { ticket, options } = await api.signInOptions();
  let credential;
  try {
    credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  } catch {
    toast(t("names.cancelled"), "error");
    return;
  }
  const { name } = await api.signIn(ticket, credentialJSON(credential));
  nowHeld(name);
}

async function addPasskey(name) {
  const { ticket, options } = await api.passkeyOptions(name);
  let credential;
  try {
    credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  } catch {
    toast(t("names.cancelled"), "error");
    return false;
  }
  await api.addPasskey(name, ticket, credentialJSON(credential));
  toast(t("names.passkeyAdded", { name }));
  return true;
}

// -- the panel --------------------------------------------------------------------------------------------------------

// The panel: on the home page about the name this browser plays under (and a way to take one here); on a
// profile (``only``: that person's name) shown only to a browser holding that name.
export function namePanel({ only = null } = {}) {
  const box = h("section", { class: "panel names", id: "your-name", "aria-labelledby": "names-title" });
  const current = () => only ?? (prefs.name || "");
  let state = { name: current(), held: false, passkeys: 0 };
  let shown = null; // the code last made here: {code, url, seconds}

  const busy = (button, work) => async () => {
    button.disabled = true;
    try { await work(); } catch (error) { toast(errorText(error), "error"); } finally { button.disabled = false; }
  };

  function heldPart() {
    if (!state.name) return h("p", { class: "names-state" }, t("names.noName"));
    if (!state.held) return h("p", { class: "names-state" }, t("names.notHeld", { name: state.name }));
    const codeButton = h("button", { type: "button", class: "button", id: "name-code" }, t("names.showCode"));
    codeButton.addEventListener("click", busy(codeButton, async () => {
      shown = await api.code(state.name);
      draw();
      document.getElementById("name-code-value")?.focus();
    }));
    const passkeyButton = PASSKEYS && h("button", { type: "button", class: "button quiet", id: "passkey-add" }, t("names.addPasskey"));
    if (passkeyButton) passkeyButton.addEventListener("click", busy(passkeyButton, async () => { if (await addPasskey(state.name)) await refresh(); }));
    return [
      h("p", { class: "names-state" }, t("names.held", { name: state.name }), " ",
        state.passkeys ? t("names.passkeys", { count: state.passkeys }) : null),
      h("div", { class: "names-actions" }, codeButton, passkeyButton),
      shown && codeShown(shown),
    ];
  }

  function codeShown(made) {
    const url = new URL(made.url, location.origin).href;
    const spaced = `${made.code.slice(0, 4)}-${made.code.slice(4)}`;
    const copy = h("button", { type: "button", class: "button small quiet" }, t("names.copy"));
    copy.addEventListener("click", () => copyText(url).then(() => toast(t("names.copied"))));
    return h("div", { class: "name-code", role: "group", "aria-labelledby": "name-code-label" },
      h("p", {}, t("names.codeLead")),
      h("p", { class: "code-line" },
        h("span", { id: "name-code-label", class: "code-label" }, t("names.codeLabel")),
        h("strong", { id: "name-code-value", class: "code", tabindex: "-1" }, spaced)),
      h("p", { class: "code-link" }, h("a", { href: url, id: "name-code-link" }, url), " ", copy),
      h("p", { class: "hint" }, t("names.codeWorks", { minutes: Math.round(made.seconds / 60) })));
  }

  function takePart() {
    const input = h("input", { id: "take-code", name: "code", maxlength: 32, autocomplete: "one-time-code", autocapitalize: "characters",
                               spellcheck: "false", placeholder: t("names.takePlaceholder") });
    const submit = h("button", { type: "submit", class: "button quiet" }, t("names.take"));
    const form = h("form", { class: "take-code" },
      h("label", { for: "take-code" }, t("names.takeLabel")),
      h("div", { class: "name-row" }, input, submit));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (code) busy(submit, async () => { await takeWithCode(code); input.value = ""; })();
    });
    const signIn = PASSKEYS && h("button", { type: "button", class: "button quiet", id: "passkey-sign-in" }, t("names.signIn"));
    if (signIn) signIn.addEventListener("click", busy(signIn, signInWithPasskey));
    return [form, signIn && h("p", { class: "names-actions" }, signIn)];
  }

  function draw() {
    box.hidden = !!only && !state.held;
    if (box.hidden) { fill(box); return; }
    fill(box,
      h("h2", { id: "names-title", class: "section-label" }, t("names.title")),
      h("p", { class: "names-lead" }, t("names.lead")),
      heldPart(),
      only ? null : takePart());
  }

  async function refresh() {
    const name = current();
    if (name !== state.name) shown = null;
    state = { name, held: false, passkeys: 0 };
    if (name) {
      try { state = { name, ...(await api.keys(name)) }; } catch { /* a name the server refuses: shown as not held */ }
    }
    draw();
  }

  draw();
  refresh();
  onLangChange(draw);
  document.addEventListener("nines:name", refresh);
  return box;
}
