// What the browser remembers: the person's name, language, settings, and which tables it has a seat at
// (never the seat's secret: that is an HttpOnly cookie the page cannot read).

const KEY = "nines.prefs";
const SEATS = "nines.seats";

const DEFAULTS = {
  name: "",
  lang: "",
  speed: 900, // computer players' pause, in ms (sent to the table when seated)
  autoplay: true, // play automatically when only one move is legal
  highlight: true, // highlight legal cards
  animations: true,
};

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? { ...fallback, ...JSON.parse(raw) } : { ...fallback };
  } catch {
    return { ...fallback };
  }
}

export const prefs = read(KEY, DEFAULTS);

export function savePrefs(changes) {
  Object.assign(prefs, changes);
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* private mode: settings last for this page */ }
  applyBodyPrefs();
}

export function applyBodyPrefs() {
  document.body.classList.toggle("no-anim", !prefs.animations);
  document.body.classList.toggle("no-highlight", !prefs.highlight);
}

export function seatFor(tableId) {
  return read(SEATS, {})[tableId] || null;
}

export function rememberSeat(tableId, seat) {
  const all = read(SEATS, {});
  all[tableId] = { seat, at: Date.now() };
  // keep the fifty most recent tables
  const kept = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
  try { localStorage.setItem(SEATS, JSON.stringify(Object.fromEntries(kept))); } catch { /* ignore */ }
}
