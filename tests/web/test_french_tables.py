"""Each game's table in French, on a phone and on a laptop: the card faces French players read (R roi, D dame,
V valet), the typed notation's help saying it stays English, and a screenshot of each kept to look at."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import SIZES, open_table

pytestmark = pytest.mark.browser

FIRST_DECISION = {"neuf": "[data-action=keep]", "elyigit": ".bid-row [data-action]", "rummy": "button[data-pile=stock].legal"}
NUMBERS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
FACES = {"fr": NUMBERS | {"R", "D", "V"}, "en": NUMBERS | {"K", "Q", "J"}}


def face_letters(page: Any) -> set[str]:
    """The ranks written on the card faces in view (corner indexes and court cards)."""
    return set(page.eval_on_selector_all(".card-face text.idx, .card-face text.court", "els => els.map(e => e.textContent)"))


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_a_french_table_shows_french_faces(pages: Pages, live_server: Any, game: str, size: str) -> None:
    page = open_table(pages, live_server, game, size, seed=11 if game == "elyigit" else 7, locale="fr-CA")
    page.wait_for_selector(FIRST_DECISION[game])
    screenshot(page, f"fr-{game}-{size}")
    letters = face_letters(page)
    assert letters and letters <= FACES["fr"] | {"★"}, f"faces not French: {sorted(letters - FACES['fr'])}"
    courts = game != "elyigit"  # Elyigit's Nines is played with ace to nine only
    assert not courts or letters & {"R", "D", "V"}, "seed with a court card in view"
    # the typed notation keeps its English letters, and the French help says so
    assert "notation anglaise" in (page.locator("#command").get_attribute("placeholder") or "")
    # the same table in English reads K, Q, J
    page.click(".lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    english = face_letters(page)
    assert english <= FACES["en"] | {"★"} and (not courts or english & {"K", "Q", "J"}), sorted(english)
