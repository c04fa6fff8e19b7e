"""Playing by clicking, as a person would: one gesture at a time, until the deal summary opens."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError

SUMMARY = "dialog.summary-dialog"
CHOICES = "dialog[open] .choices button"


def click_first(page: Any, selector: str) -> bool:
    """Click the first element matching, if there is one (the table may redraw under the mouse: then try again)."""
    target = page.locator(selector)
    if not target.count():
        return False
    try:
        target.first.click(timeout=1500)
    except PlaywrightError:  # redrawn or gone: the next step looks again
        return False
    return True


def play_until(page: Any, step: Callable[[Any], bool], done: Callable[[Any], bool], timeout: float = 120) -> int:
    """Repeat ``step`` (one gesture) until ``done``; returns how many gestures were made."""
    gestures = 0
    deadline = time.monotonic() + timeout
    while not done(page):
        if time.monotonic() > deadline:
            raise AssertionError(f"the deal did not end in {timeout} s ({gestures} gestures made)")
        if step(page):
            gestures += 1
        page.wait_for_timeout(60)
    return gestures


def summary_open(page: Any) -> bool:
    return page.locator(SUMMARY).count() > 0


def legal_actions(page: Any) -> list[str]:
    """The moves the page offers for typing (the same list the server sent in the view)."""
    return page.eval_on_selector_all("datalist option", "options => options.map(o => o.value)")


# -- Le Neuf -----------------------------------------------------------------------------------------


def neuf_step(page: Any) -> bool:
    if page.locator("[data-action=keep]").count():
        return click_first(page, "[data-action=keep]")
    return click_first(page, ".hand.controlled button.card.legal")


# -- Elyigit's Nines -----------------------------------------------------------------------------------


def elyigit_step(page: Any) -> bool:
    bids = page.locator(".bid-row button.bid")
    if bids.count():
        # bid the lowest when nobody has bid yet, otherwise pass: the auction ends quickly either way
        standing = page.locator(".side-game").get_attribute("data-high-bid")
        if page.locator(".bid-row [data-action=pass]").count() and standing:
            return click_first(page, ".bid-row [data-action=pass]")
        return click_first(page, ".bid-row button.bid")
    if page.locator("[data-action^='trump ']").count():
        return click_first(page, "[data-action^='trump ']")
    return click_first(page, ".hand.controlled button.card.legal")


# -- Nines rummy ------------------------------------------------------------------------------------------


def rummy_step(page: Any) -> bool:
    if page.locator(CHOICES).count():  # the last gesture matched several moves: the first offered
        return click_first(page, CHOICES)
    if page.locator("button[data-pile=stock].legal").count():
        return click_first(page, "button[data-pile=stock].legal")
    if not page.locator(".rummy-hand button.card").count() or not page.locator("[data-action=discard]").count():
        return False
    legal = legal_actions(page)
    lays = [a for a in legal if a.startswith("lay ")]
    extends = [a for a in legal if a.startswith("extend ")]
    if lays:
        # select the cards of a legal lay in the hand, then press Lay
        cards = [token.split("=")[0] for token in lays[0].split()[1:]]
        if select_cards(page, cards) and click_first(page, "[data-action=lay]:not([disabled])"):
            choose_first(page)
            return True
    if extends:
        words = extends[0].split()
        if select_cards(page, [words[2].split("=")[0]]) and click_first(page, f"button.table-set[data-set='{words[1]}']"):
            choose_first(page)
            return True
    clear_selection(page)
    # select the last card that may be discarded, then click the discard pile
    discards = [a.split()[1] for a in legal if a.startswith("discard ")]
    if not discards:
        return False
    select_cards(page, [discards[-1]])
    return click_first(page, "button[data-pile=discard].legal")


def tap(page: Any, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    target = page.locator(selector).first
    # cards in a hand overlap: touch the part of a card left uncovered by the next one
    where = {"position": {"x": 8, "y": 24}} if "card" in selector else {}
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        target.tap(**where)
    else:
        target.click(**where)


def rummy_turn_drawn(page: Any) -> list[str]:
    """Wait for this seat's turn at rummy, draw from the stock when the turn begins with a draw, and give the
    legal actions after it (the page scrolled to its top)."""
    while True:
        page.wait_for_function(
            "document.querySelector('.status-line.my-turn') && document.querySelectorAll('datalist option').length")
        legal = legal_actions(page)
        page.evaluate("window.scrollTo(0, 0)")
        if "draw stock" not in legal:
            return legal
        tap(page, "button[data-pile=stock].legal")
        page.wait_for_selector("[data-action=discard]")


def select_cards(page: Any, codes: list[str]) -> bool:
    clear_selection(page)
    wanted = list(codes)
    # the hand read at once: read card by card, a hand redrawn shorter meanwhile (a move taken) left the loop
    # waiting a minute for a card that was no longer there (a whole-suite run, the challenge on a phone)
    held = page.eval_on_selector_all(".rummy-hand button.card", "cards => cards.map((card) => card.dataset.code)")
    for i, code in enumerate(held):
        if code in wanted:
            wanted.remove(code)
            try:
                page.locator(".rummy-hand button.card").nth(i).click(timeout=1500)
            except PlaywrightError:  # redrawn or gone
                return False
    return not wanted


def clear_selection(page: Any) -> None:
    for _ in range(12):
        chosen = page.locator(".rummy-hand button.card.selected")
        if not chosen.count():
            return
        try:
            chosen.first.click(timeout=1500)
        except PlaywrightError:  # redrawn or gone
            return


def gesture_taken(page: Any, seq: str | None) -> None:
    """Until the gesture made at move ``seq`` (the table's ``data-seq`` before it) was taken as a move, or opened the
    choice between the moves it matches: waited for, not a fixed 100 ms assumed long enough for a tap's click."""
    page.wait_for_function(
        "seq => document.querySelector('.table-shell').dataset.seq !== seq"
        " || !!document.querySelector('dialog[open] .choices button')", arg=seq)


def choose_first(page: Any, seq: str | None = None) -> None:
    """When several moves match a gesture (a wild that could stand for two cards), take the first offered. A click
    opens the choice in the click itself; with ``seq`` (the move before the gesture: a tap's click comes after the
    touch), first wait until the gesture was taken or the choice opened."""
    if seq is not None:
        gesture_taken(page, seq)
    if page.locator(CHOICES).count():
        click_first(page, CHOICES)
