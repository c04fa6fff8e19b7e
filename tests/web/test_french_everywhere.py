"""French all the way: a whole match of each game played by clicking on a French page, every text node of the page
and of each window read along the way (the table at each gesture, each deal's summary with its review, the last trick,
the score sheet, the keys, the settings, the invitation, the replay step by step, the home and statistics pages),
looking for words that exist only in English."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import Pages, screenshot
from .driving import click_first, elyigit_step, neuf_step, rummy_step
from .seating import open_table

pytestmark = pytest.mark.browser

# words a French page never holds (none is a French word); card faces and notation letters are single letters
ENGLISH_ONLY = re.compile(
    r"\b(the|you|your|and|with|of|is|are|was|were|play|played|plays|trick|tricks|hand|hands|exchange|exchanged|keep|kept|"
    r"stopped|values|every|card|cards|deal|deals|replay|review|south|west|east|north|player|players|waiting|seat|seats|"
    r"won|wins|bid|bids|trumps?|stock|discard|discarded|move|moves|turn|left|sets?|wild|stand-in|last|next|previous|"
    r"start|end|none|cost|best|lost|not|scored|took|led|by|for|to|in)\b(?!-)", re.IGNORECASE)

TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, datalist, noscript')) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  return out;
}"""

SHORT = {"neuf": {"start_score": 1}, "elyigit": {"target": 1}, "rummy": {}}


def elyigit_high(page: Any) -> bool:
    """Bid nine tricks: the defenders' first tricks defeat it, play stops early and the review says so in a note."""
    if page.locator(".bid-row button.bid").count():
        return click_first(page, ".bid-row button.bid >> nth=-1")
    return elyigit_step(page)


STEP = {"neuf": neuf_step, "elyigit": elyigit_high, "rummy": rummy_step}


class Reader:
    """Every English-only word met, with the text it stood in and where."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.found: dict[str, str] = {}

    def read(self, where: str) -> None:
        for text in self.page.evaluate(TEXTS):
            match = ENGLISH_ONLY.search(text)
            if match and text not in self.found:
                self.found[text] = f"{where}: {match.group(0)!r}"

    def window(self, where: str, opener: Any, then: Any = None) -> None:
        """Open a window, read it (and what ``then`` shows in it), close it."""
        opener()
        self.page.wait_for_selector("dialog[open]")
        self.read(where)
        if then:
            then()
        self.page.keyboard.press("Escape")
        self.page.wait_for_function("!document.querySelector('dialog[open]')")


def summary_with_review(reader: Reader, where: str) -> None:
    page = reader.page
    page.locator("dialog.summary-dialog .review-panel .review, dialog.summary-dialog .review-panel .review-note").first.wait_for(timeout=60_000)
    reader.read(where)
    if where.endswith("elyigit"):
        assert page.locator("dialog.summary-dialog .review-note").count(), "a deal that stopped early has its note"
    page.locator("dialog.summary-dialog .dialog-actions button").click()
    page.wait_for_function("!document.querySelector('dialog.summary-dialog')")


# each game once, both sizes seen (a word is French or not whatever the width; rummy's crowded table on the phone)
@pytest.mark.parametrize(("game", "size"), [("neuf", "laptop"), ("elyigit", "phone"), ("rummy", "phone")])
def test_a_whole_french_match_holds_no_english_word(pages: Pages, live_server: Any, game: str, size: str) -> None:
    page = open_table(pages, live_server, game, size, seed=11 if game == "elyigit" else 7, locale="fr-CA", options=SHORT[game])
    reader = Reader(page)
    page.wait_for_selector(".status-line.my-turn")
    reader.read("the table")
    tools = (lambda: page.click(".tools-toggle")) if size == "phone" else (lambda: None)

    def tool(name: str) -> Any:
        return lambda: (tools(), page.click(f"[data-tool={name}]"))

    reader.window("invitation", tool("share"))
    reader.window("keys", tool("keys"))
    reader.window("settings", tool("settings"))
    if game == "rummy":  # an open session: this hand is its last
        page.click(".trump-box [data-action='end session']")
    deadline = time.monotonic() + 300
    deals = 0
    while not page.locator(".notice.over").count():
        assert time.monotonic() < deadline, "the match did not end in 300 s"
        if page.locator("dialog.summary-dialog").count():
            deals += 1
            summary_with_review(reader, f"summary of deal {deals} of {game}")
            continue
        if STEP[game](page):
            reader.read("the table")
        page.wait_for_timeout(60)
    if page.locator("dialog.summary-dialog").count():
        summary_with_review(reader, f"the last summary of {game}")
    reader.read("the match over")
    screenshot(page, f"polish-fr-over-{game}-{size}")
    if game != "rummy":
        reader.window("last trick", tool("last"))
    reader.window("score sheet", tool("sheet"))

    def step_through() -> None:
        page.wait_for_selector(".replay-felt .felt")
        for _ in range(8):
            # each step read once it is drawn (the step's number changed), not a fixed 30 ms after the click
            shown = page.evaluate("document.querySelector('.replay-step').textContent")
            page.click("[data-step=next]")
            page.wait_for_function("shown => document.querySelector('.replay-step').textContent !== shown", arg=shown)
            reader.read("the replay")
        screenshot(page, f"polish-fr-replay-{game}-{size}")

    reader.window("replay", lambda: page.click("[data-tool=replay]"), step_through)
    for path in ("/", "/stats"):
        page.goto(live_server.url + path)
        page.wait_for_selector("main")
        # the home page's chooser opens a game's setup: read once it is there (not a fixed 200 ms after the click,
        # which read the page mid-navigation, or the home page again)
        if click_first(page, ".game-card"):
            page.wait_for_url(re.compile(r"/(neuf|elyigit|rummy)$"))
            page.wait_for_selector(".setup button[type=submit]")
        reader.read(path)
    assert not reader.found, "English on French pages:\n" + "\n".join(f"{where}: {text}" for text, where in reader.found.items())
