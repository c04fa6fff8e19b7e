// Small helpers for building the page without a framework.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "text") el.textContent = value;
    else if (key === "html") el.innerHTML = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === "text") el.textContent = value;
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Replace an element's children (null, false and nested arrays are skipped).
export function fill(el, ...children) {
  clear(el);
  return append(el, children);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

let toastTimer = null;

export function toast(text, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  // under the top bar while it is in view (the toast must not hide the navigation), never lower: the hand is below
  const bar = document.querySelector(".topbar");
  const barBottom = bar ? bar.getBoundingClientRect().bottom : 0;
  box.style.top = `${Math.max(8, Math.round(barBottom) + 6)}px`;
  box.className = `toast show ${kind}`;
  box.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), kind === "error" ? 5000 : 3000);
}

// A modal <dialog> with a title and a close button; returns the dialog (already open).
export function openDialog(title, body, { closeLabel = "Close", className = "", onClose } = {}) {
  const dialog = h("dialog", { class: `dialog ${className}` },
    h("header", { class: "dialog-head" },
      h("h2", {}, title),
      h("button", { class: "icon-button", type: "button", "aria-label": closeLabel, onclick: () => dialog.close() }, "×")),
    h("div", { class: "dialog-body" }, body));
  dialog.addEventListener("close", () => { dialog.remove(); if (onClose) onClose(); });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
  area.value = text;
  document.body.append(area);
  area.select();
  try { document.execCommand("copy"); } finally { area.remove(); }
  return Promise.resolve();
}
