"""A hint says the computer player's reason in the page's language: French on a French page, never an English sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import open_table

pytestmark = pytest.mark.browser

ENGLISH_WORDS = re.compile(r"\b(the|my|tricks|deals|hand|with|of|keep|exchange|bid|pass|draw|stock|take)\b")
FRENCH_WORDS = re.compile(r"\b(le|la|les|de|des|du|ma|mon|plis|donnes|talon|garder|échanger|passer|annoncer|piocher)\b")
# the decision each game's first turn asks of the person, and what the page shows for it
FIRST_DECISION = {
    "neuf": "[data-action=keep]",
    "elyigit": ".bid-row [data-action]",
    "rummy": "button[data-pile=stock].legal",
}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_a_hint_gives_its_reason_in_the_page_language(pages: Pages, live_server: Any, game: str, lang: str) -> None:
    page = open_table(pages, live_server, game, "laptop", locale=f"{lang}-CA")
    page.wait_for_selector(FIRST_DECISION[game])
    page.click("[data-tool=hint]")
    page.wait_for_selector(".hint-box strong", timeout=60_000)
    box = page.locator(".hint-box").inner_text()
    reason = box.split(" — ", 1)[1].strip()
    assert reason and not reason[0].islower(), box  # a sentence begins with a capital
    if lang == "fr":
        assert not ENGLISH_WORDS.search(reason), f"English on a French page: {box}"
        assert FRENCH_WORDS.search(reason), box
    else:
        assert ENGLISH_WORDS.search(reason), box
    screenshot(page, f"hint-{game}-{lang}")
