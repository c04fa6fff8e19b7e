"""A whole deal of each game, played by clicking in headless Chromium; pages at desktop and phone sizes."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import PHONE, Pages, screenshot
from .driving import click_first, elyigit_step, neuf_step, play_until, rummy_step, summary_open
from .seating import open_table

pytestmark = pytest.mark.browser


def start_from_home(page, live_server, game_label: str) -> str:
    page.goto(live_server.url + "/")
    page.fill("#person-name", "Ann")
    page.click(".name-field button[type=submit]")
    page.click(f".game-tab label:text-is('{game_label}')")
    page.select_option(".setup select[name=speed]", "0")  # computer players without a pause: a quick test
    page.click(".setup button[type=submit]")
    page.wait_for_selector(".table-shell .felt")
    return page.url


def device_link(page) -> str:
    """The one-time "move to another device" link, made from the table's share dialog."""
    # a deal's summary may be open: closed until none is (a 60 s deadline), not five tries 100 ms apart assumed
    # long enough for each Escape to take
    deadline = time.monotonic() + 60
    while page.locator("dialog[open]").count():
        assert time.monotonic() < deadline, "a dialog stayed open"
        page.keyboard.press("Escape")
    page.click("[data-tool=share]")
    page.click("[data-tool=device]")
    link = page.locator("[data-device-link] input").input_value()
    assert "claim=" in link
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    return link


def start_from_game_page(page, live_server, game: str) -> str:
    page.goto(f"{live_server.url}/{game}")
    page.wait_for_selector(".setup button[type=submit]")
    page.select_option(".setup select[name=speed]", "0")
    page.click(".setup button[type=submit]")
    page.wait_for_selector(".table-shell .felt")
    return page.url


def test_le_neuf_deal_by_clicking_with_a_reload_in_the_middle(pages: Pages, live_server) -> None:
    page = pages.new()
    url = start_from_home(page, live_server, "Le Neuf")
    # the one-time claim is spent at once: the address shows only the table, no secret
    assert re.fullmatch(r".*/neuf\?t=\w+", url), url
    screenshot(page, "home-after-start-neuf")
    # the exchange: the centre hand is offered, keyboard or click; keep with the K key
    page.wait_for_selector("[data-action=keep]")
    page.keyboard.press("k")
    # a card the rules refuse is not sent: the page says why and nothing changes
    page.wait_for_selector(".hand.controlled button.card.legal")
    seq_before = page.evaluate("document.querySelector('.deal-label') && document.querySelectorAll('.hand.controlled button.card').length")
    illegal = page.locator(".hand.controlled button.card.illegal")
    if illegal.count():
        illegal.first.click(force=True)  # marked aria-disabled: Playwright clicks it only when forced
        page.wait_for_selector(".toast.show")
        assert page.locator(".hand.controlled button.card").count() == seq_before
    # play a card with the keyboard: move to a card, Enter plays the focused legal card
    page.locator(".hand.controlled button.card.legal").first.focus()
    cards_before = page.locator(".hand[data-seat=S] .card").count()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('.hand[data-seat=S] .card').length === {cards_before - 1}")
    for _ in range(3):
        # each card counted out of the hand before the next: the reload below must find the hand as it was left
        page.wait_for_selector(".hand.controlled button.card.legal")
        before = page.locator(".hand[data-seat=S] .card").count()
        if click_first(page, ".hand.controlled button.card.legal"):
            page.wait_for_function(f"document.querySelectorAll('.hand[data-seat=S] .card').length === {before - 1}")
    screenshot(page, "neuf-desktop")
    # close the tab and come back: the seat comes back with it
    left = page.locator(".hand[data-seat=S] .card").count()
    page.reload()
    page.wait_for_selector(".table-shell .felt .plate.mine")
    assert page.locator(".plate.mine .plate-name").inner_text().lower() in ("you", "ann")
    assert page.locator(".hand[data-seat=S] .card").count() == left
    play_until(page, neuf_step, summary_open)
    summary = page.locator("dialog.summary-dialog")
    assert summary.locator(".summary-hand").count() == 4  # three hands as played and the spare set aside
    assert summary.locator(".trick-list li").count() == 13
    screenshot(page, "neuf-summary")
    summary.locator(".dialog-actions button").click()
    # the score sheet of seed 000: the start row, then deal 1 with its trump and the total fallen by one
    page.keyboard.press("g")
    rows = page.locator("dialog .neuf-sheet tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td.total").inner_text() == "27"
    assert rows.nth(1).locator("td.total").inner_text() == "26"
    page.keyboard.press("Escape")
    # the same seat moves to a phone with a one-time link; the laptop then watches
    phone = pages.new(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(device_link(page))
    phone.wait_for_selector(".table-shell .felt .plate.mine")
    page.wait_for_selector(".notice.spectator")
    screenshot(phone, "neuf-phone")
    screenshot(phone, "neuf-phone-page", full_page=True)
    # statistics are kept per person
    page.goto(live_server.url + "/stats")
    page.wait_for_selector(".stats-table")
    assert "Le Neuf" in page.locator(".stats-table thead").inner_text()


def test_elyigit_deal_by_clicking(pages: Pages, live_server) -> None:
    page = pages.new()
    start_from_game_page(page, live_server, "elyigit")
    page.wait_for_selector(".auction")
    screenshot(page, "elyigit-auction")
    play_until(page, elyigit_step, summary_open)
    summary = page.locator("dialog.summary-dialog")
    assert summary.locator(".auction-line").count() == 1
    screenshot(page, "elyigit-summary")
    summary.locator(".dialog-actions button").click()
    # a second deal is under way: show its table, with the dummy face up once trumps are named
    play_until(page, elyigit_step, lambda p: p.locator(".dummy-hand").count() > 0 or summary_open(p), timeout=60)
    screenshot(page, "elyigit-desktop")
    phone = pages.new(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(device_link(page))
    phone.wait_for_selector(".table-shell .felt .plate.mine")
    screenshot(phone, "elyigit-phone")


def test_rummy_hand_by_clicking(pages: Pages, live_server) -> None:
    page = pages.new()
    start_from_game_page(page, live_server, "rummy")
    page.wait_for_selector(".piles")
    play_until(page, rummy_step, lambda p: summary_open(p) or p.locator(".table-set").count() > 0, timeout=120)
    screenshot(page, "rummy-desktop")
    play_until(page, rummy_step, summary_open, timeout=180)
    summary = page.locator("dialog.summary-dialog")
    assert summary.locator(".summary-hand").count() == 4
    screenshot(page, "rummy-summary")
    phone = pages.new(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(device_link(page))
    phone.wait_for_selector(".table-shell .felt .rummy-hand")
    screenshot(phone, "rummy-phone")


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_game_pages_read_well_on_desktop_and_phone(pages: Pages, live_server, game: str) -> None:
    for name, viewport in (("desktop", None), ("phone", PHONE)):
        page = pages.new(viewport=viewport) if viewport else pages.new()
        page.goto(f"{live_server.url}/{game}")
        page.wait_for_selector("#how .prose-grid article")
        assert page.locator("#how .section-head").inner_text().upper().startswith("01")
        assert page.locator("#history .prose-grid article").count() >= 3
        # nothing sticks out sideways on a phone
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        screenshot(page, f"{game}-page-{name}", full_page=True)


def test_french_from_the_browser_and_the_switch(pages: Pages, live_server) -> None:
    page = pages.new(locale="fr-CA")
    page.goto(live_server.url + "/neuf")
    page.wait_for_selector("#how .prose-grid article")
    assert "comment jouer" in page.locator("#how .section-head").inner_text().lower()
    assert page.locator("html").get_attribute("lang") == "fr"
    page.click(".lang-switch")
    page.wait_for_function("document.querySelector('#how .section-head').innerText.toLowerCase().includes('how to play')")
    assert page.locator("html").get_attribute("lang") == "en"


def test_autoplay_plays_the_only_legal_card_and_nothing_else(pages: Pages, live_server) -> None:
    """With autoplay on (the person's saved setting), the page plays a lone legal card by itself. The test clicks
    only when two or more cards are legal, so the deal can end only if the page played every lone card itself
    (at least the last trick's, where one card is left in the hand)."""
    page = open_table(pages, live_server, "neuf", "laptop", prefs={"autoplay": True})
    clicked = []

    def step(page) -> bool:
        if page.locator("[data-action=keep]").count():
            return click_first(page, "[data-action=keep]")
        if page.locator(".hand.controlled button.card.legal").count() >= 2 and click_first(page, ".hand.controlled button.card.legal"):
            clicked.append(True)
            return True
        return False

    play_until(page, step, summary_open)
    assert summary_open(page)
    assert len(clicked) < 13, "the test played all 13 cards: the page never played a lone card itself"


def test_rummy_lay_offers_each_order_of_its_wilds(pages: Pages, live_server) -> None:
    """Seed 002: the player says which wild stands for which card. The server lists a lay once per set of
    places (its wilds in rule order); the page offers the other orders of the same wild cards itself."""
    page = pages.new()
    page.goto(live_server.url + "/")
    orders = page.evaluate(
        """async () => {
          const { wildOrders } = await import('/static/js/games/rummy.js');
          return [
            wildOrders({ wild_rank: 'T' }, 'lay TC=7H JK=8H 9H'),
            wildOrders({ wild_rank: 'T' }, 'lay 7H 8H 9H'),
            wildOrders({ wild_rank: 'T' }, 'lay JK=9H TH JK=JH'),
            wildOrders({ wild_rank: '5' }, 'lay 5S=6H 7H 8H 5H=9H JK=TH').length,
          ];
        }"""
    )
    assert orders[0] == ["lay TC=7H JK=8H 9H", "lay JK=7H TC=8H 9H"]
    assert orders[1] == ["lay 7H 8H 9H"]
    # a card of the wild rank sitting as itself is one of the wilds to place; two jokers are one order
    assert sorted(orders[2]) == ["lay JK=9H JK=TH TH=JH", "lay JK=9H TH JK=JH", "lay TH=9H JK=TH JK=JH"]
    assert orders[3] == 6
