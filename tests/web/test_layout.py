"""Everything a player needs on one screen: at each decision of each game, on a phone and on a laptop, the hand
and that decision's controls lie inside the viewport of the unscrolled page, before and after acting."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import SIZES, open_table, outside_the_screen

pytestmark = pytest.mark.browser

HAND = ".felt .hand[data-seat='{seat}'] .card"
MY_TURN = ".status-line.my-turn"


def fits(page: Any, name: str, *selectors: str) -> None:
    problems = outside_the_screen(page, *selectors)
    screenshot(page, name)
    assert not problems, f"{name}: off the screen:\n" + "\n".join(problems)


def wait_turn(page: Any, selector: str, timeout: int = 20_000) -> None:
    page.wait_for_selector(f"{MY_TURN}", timeout=timeout)
    page.wait_for_selector(selector, timeout=timeout)


def tap(page: Any, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    target = page.locator(selector).first
    # cards in a hand overlap: touch the part of a card left uncovered by the next one
    where = {"position": {"x": 8, "y": 24}} if "card" in selector else {}
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        target.tap(**where)
    else:
        target.click(**where)


@pytest.mark.parametrize("size", list(SIZES))
def test_le_neuf_exchange_and_play_fit(pages: Pages, live_server: Any, size: str) -> None:
    page = open_table(pages, live_server, "neuf", size)
    hand = HAND.format(seat="S")
    wait_turn(page, "[data-action=keep]")
    fits(page, f"layout-neuf-exchange-{size}", hand, "[data-action=exchange]", "[data-action=keep]")
    tap(page, "[data-action=keep]")
    wait_turn(page, ".hand.controlled button.card.legal")
    fits(page, f"layout-neuf-play-{size}", hand)
    tap(page, ".hand.controlled button.card.legal")
    page.wait_for_timeout(300)
    fits(page, f"layout-neuf-after-{size}", hand)


@pytest.mark.parametrize("size", list(SIZES))
def test_elyigit_bid_trump_and_play_fit(pages: Pages, live_server: Any, size: str) -> None:
    page = open_table(pages, live_server, "elyigit", size, seed=11)
    hand = HAND.format(seat="S")
    wait_turn(page, ".bid-row [data-action]")
    fits(page, f"layout-elyigit-bid-{size}", hand, ".bid-row [data-action]")
    # the highest bid: nobody can bid over it, so this seat names trumps
    tap(page, ".bid-row button.bid >> nth=-1")
    wait_turn(page, "[data-action^='trump ']")
    fits(page, f"layout-elyigit-trump-{size}", hand, "[data-action^='trump ']")
    tap(page, "[data-action^='trump ']")
    wait_turn(page, ".hand.controlled button.card.legal")
    fits(page, f"layout-elyigit-play-{size}", hand, ".dummy-hand .card")
    tap(page, ".hand.controlled button.card.legal")
    page.wait_for_timeout(300)
    fits(page, f"layout-elyigit-after-{size}", hand, ".dummy-hand .card")


@pytest.mark.parametrize("size", list(SIZES))
def test_rummy_draw_lay_and_discard_fit(pages: Pages, live_server: Any, size: str) -> None:
    page = open_table(pages, live_server, "rummy", size)
    hand = HAND.format(seat="1")
    wait_turn(page, "button[data-pile=stock].legal")
    fits(page, f"layout-rummy-draw-{size}", hand, "[data-action='draw stock']", "button[data-pile=stock]", "[data-pile=discard]")
    tap(page, "button[data-pile=stock].legal")
    wait_turn(page, "[data-action=discard]")
    fits(page, f"layout-rummy-play-{size}", hand, "[data-action=discard]", "[data-pile=discard]")
    tap(page, ".rummy-hand button.card >> nth=-1")
    fits(page, f"layout-rummy-selected-{size}", hand, "[data-action=discard]", "[data-pile=discard]")
    tap(page, "[data-action=discard]:not([disabled])")
    page.wait_for_timeout(300)
    fits(page, f"layout-rummy-after-{size}", hand)
