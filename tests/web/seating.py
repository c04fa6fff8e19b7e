"""Tables made through the lobby API and opened in a browser at a chosen screen size, and what the page shows."""

from __future__ import annotations

from typing import Any

from .conftest import LAPTOP, PHONE, Pages

# The two screens of issue 16: a phone held upright (touch) and the most common laptop screen.
SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": LAPTOP},
}

# Each language once at each size, in two runs instead of four: a test whose words do not depend on the screen's
# width (what a move is called, a sentence's parts) runs these two; one that measures text against the width
# (nothing cut short) runs all four. French on the phone is the tightest of the four, English on a laptop the
# most common. (The accessibility checks run the other two: every pair is seen somewhere.)
LANG_SIZE_PAIRS = [("en", "laptop"), ("fr", "phone")]
OTHER_LANG_SIZE_PAIRS = [("en", "phone"), ("fr", "laptop")]

SEATS = {
    "neuf": ["S", "W", "E"],
    "elyigit": ["S", "W", "N", "E"],
    "rummy": ["1", "2", "3"],
}


def open_table(pages: Pages, live_server: Any, game: str, size: str, *, seed: int = 7, locale: str = "en-CA",
               options: dict[str, Any] | None = None, bot: str = "basic", prefs: dict[str, Any] | None = None,
               bot_delay_ms: int = 0) -> Any:
    """A new table where the person sits in the first seat and computer players play the others at once.
    ``prefs``: the page's settings as the person saved them (``{"autoplay": True}``), before it loads; by default
    autoplay is off (see ``Pages.new``). ``bot_delay_ms``: the computer players' pause before each move (a test
    that reads what the page says while they think sets it long; it only holds the table still, never times it)."""
    seats = {seat: {"kind": "me"} if i == 0 else {"kind": "bot", "bot": bot} for i, seat in enumerate(SEATS[game])}
    options = {"players": len(seats), **(options or {})} if game == "rummy" else options or {}
    body = {"game": game, "seats": seats, "bot_delay_ms": bot_delay_ms, "seed": seed, "options": options, "public": False}
    seated = live_server.api("POST", "/api/tables", body)
    page = pages.new(locale=locale, prefs=prefs, **SIZES[size])
    url = seated.get("url") or f"/{game}?t={seated['table']['id']}#seat={seated['seat']}&token={seated['token']}"
    page.goto(live_server.url + url if url.startswith("/") else url)
    page.wait_for_selector(".table-shell .felt")
    return page


OUTSIDE = """(selectors) => {
  const out = [];
  const w = window.innerWidth, h = window.innerHeight;
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)];
    if (!found.length) out.push(`${selector}: nothing on the page`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) { out.push(`${selector}: not drawn`); continue; }
      if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
        out.push(`${selector} [${el.dataset.code || el.dataset.action || el.dataset.pile || ''}] at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} (screen ${w}x${h})`);
      }
    }
  }
  if (window.scrollY !== 0 || window.scrollX !== 0) out.push(`the page is scrolled to ${window.scrollX},${window.scrollY}`);
  return out;
}"""


def outside_the_screen(page: Any, *selectors: str) -> list[str]:
    """Every element matching a selector that is not wholly inside the viewport of the unscrolled page."""
    return page.evaluate(OUTSIDE, list(selectors))


OVERLAPS = """([movers, fixed, margin]) => {
  // where things rest: a card still flying to the trick (a move that came a moment ago) is put where it lands
  document.getAnimations().forEach((a) => a.finish());
  const out = [];
  const boxes = (selector) => [...document.querySelectorAll(selector)]
    .map((el) => ({ el, r: el.getBoundingClientRect() })).filter(({ r }) => r.width > 0 && r.height > 0);
  const label = (el) => el.dataset.code || el.closest('[data-seat]')?.dataset.seat || el.className;
  for (const a of boxes(movers)) {
    for (const b of boxes(fixed)) {
      const w = Math.min(a.r.right, b.r.right + margin) - Math.max(a.r.left, b.r.left - margin);
      const h = Math.min(a.r.bottom, b.r.bottom + margin) - Math.max(a.r.top, b.r.top - margin);
      if (w > 0.5 && h > 0.5) out.push(`${movers} [${label(a.el)}] covers ${fixed} [${label(b.el)}] by ${Math.round(w)}x${Math.round(h)} px`);
    }
  }
  return out;
}"""


def overlapping(page: Any, movers: str, fixed: str, margin: float = 0) -> list[str]:
    """Every pair of an element matching ``movers`` and one matching ``fixed`` whose boxes overlap, at rest;
    ``margin`` px round each ``fixed`` box count as part of it (a ring drawn outside its box)."""
    return page.evaluate(OVERLAPS, [movers, fixed, margin])
