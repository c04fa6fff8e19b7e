"""A card or a meld the rules refuse says why, in the page's language: the same reason the rules give a typed move."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import open_table

pytestmark = pytest.mark.browser

# what the toast must say (the rule's reason), and words of the other language it must not hold
EXPECTED = {
    "en": {
        "exchange": r"^You are deciding whether to exchange",  # (not "South is deciding": the reader is South)
        "follow": r"were led and you hold .*: you must follow suit",
        "auction": r"It is the auction: you may bid",
        "first_round": r"Nobody may lay, extend or swap until play comes back",
    },
    "fr": {
        "exchange": r"^Vous décidez si vous échangez",
        "follow": r"La couleur demandée est .* vous devez fournir",
        "auction": r"C'est l'enchère : vous pouvez",
        "first_round": r"Personne ne pose, ne complète ni n'échange",
    },
}
ENGLISH_WORDS = re.compile(r"\b(the|you|must|is|not|cannot|play)\b")


# (Playwright will not click an element marked aria-disabled by itself: force=True clicks as a person may)
def refusal_after(page: Any, gesture: Any) -> str:
    page.evaluate("document.getElementById('toast') && document.getElementById('toast').classList.remove('show')")
    gesture()
    page.wait_for_selector("#toast.show.error")
    return page.locator("#toast").inner_text()


def said(lang: str, what: str, text: str) -> None:
    assert re.search(EXPECTED[lang][what], text), text
    if lang == "fr":
        assert not ENGLISH_WORDS.search(text), f"English on a French page: {text}"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_le_neuf_refusals_say_the_rule(pages: Pages, live_server: Any, lang: str) -> None:
    page = open_table(pages, live_server, "neuf", "laptop", locale=f"{lang}-CA")
    page.wait_for_selector(".status-line.my-turn [data-action]," + "[data-action=keep]")
    # a card clicked while deciding on the exchange
    said(lang, "exchange", refusal_after(page, lambda: page.locator(".hand[data-seat=S] button.card").first.click(force=True)))
    page.click("[data-action=keep]")
    page.wait_for_selector(".hand.controlled button.card.legal")
    illegal = page.locator(".hand.controlled button.card[aria-disabled=true]")
    assert illegal.count(), "at seed 7 South must follow suit to the first trick"
    assert page.locator(".hand.controlled button.card.legal[aria-disabled]").count() == 0
    seq = page.locator(".table-shell").get_attribute("data-seq")
    said(lang, "follow", refusal_after(page, lambda: illegal.first.click(position={"x": 8, "y": 24}, force=True)))
    screenshot(page, f"refusal-neuf-{lang}")
    assert page.locator(".table-shell").get_attribute("data-seq") == seq  # nothing changed


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_elyigit_and_rummy_refusals_say_the_rule(pages: Pages, live_server: Any, lang: str) -> None:
    page = open_table(pages, live_server, "elyigit", "laptop", seed=11, locale=f"{lang}-CA")
    page.wait_for_selector(".bid-row [data-action]")
    said(lang, "auction", refusal_after(page, lambda: page.locator(".hand[data-seat=S] button.card").first.click(position={"x": 8, "y": 24}, force=True)))
    rummy = open_table(pages, live_server, "rummy", "laptop", locale=f"{lang}-CA")
    rummy.wait_for_selector("button[data-pile=stock].legal")
    rummy.click("button[data-pile=stock].legal")
    rummy.wait_for_selector(".rummy-hand button.card")
    rummy.locator(".rummy-hand button.card").first.click(position={"x": 8, "y": 24})
    # in the first round no set may be laid: the L key asks anyway, and the reason comes back
    said(lang, "first_round", refusal_after(rummy, lambda: rummy.keyboard.press("l")))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_name_someone_else_owns_is_refused_in_the_page_language(pages: Pages, live_server: Any, lang: str) -> None:
    """The lobby's refusals carry their key to the page (they reached it as the server's English sentence)."""
    owner = f"Owner {lang}"
    live_server.api("POST", "/api/people", {"name": owner})  # another browser uses the name first
    page = pages.new(locale=f"{lang}-CA")
    page.goto(live_server.url + "/")
    page.fill("#person-name", owner)
    page.press("#person-name", "Enter")
    page.wait_for_selector("#toast.show.error")
    text = page.locator("#toast").inner_text()
    expected = {"en": "belongs to someone else", "fr": "appartient à quelqu'un d'autre"}[lang]
    assert expected in text and owner in text, text
    if lang == "fr":
        assert not ENGLISH_WORDS.search(text), f"English on a French page: {text}"
    pages.errors[:] = [e for e in pages.errors if "409 (Conflict)" not in e]  # the refused request, as the console says
