"""Accessibility: axe-core finds no serious or critical violation on the pages and at a table in play, in English
and French; a whole deal played with the keyboard alone keeps the focus in the hand."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import open_table

pytestmark = pytest.mark.browser

GAMES = ["neuf", "elyigit", "rummy"]


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # ships axe-core: nothing is downloaded

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:4])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_serious_violation_on_the_pages_and_at_the_tables(pages: Pages, live_server: Any, lang: str) -> None:
    page = pages.new(locale=f"{lang}-CA")
    found: dict[str, list[str]] = {}
    page.goto(live_server.url + "/")
    page.wait_for_selector(".setup button[type=submit]")
    found["home"] = serious_violations(page)
    for game in GAMES:
        page.goto(f"{live_server.url}/{game}")
        page.wait_for_selector("#how .prose-grid article")
        found[game] = serious_violations(page)
    page.goto(f"{live_server.url}/no-such-game")
    page.wait_for_selector(".missing h1")
    found["missing"] = serious_violations(page)
    # that address answers 404 on purpose (the browser reports it as a failed load)
    pages.errors[:] = [e for e in pages.errors if "no-such-game" not in e]
    for game in GAMES:
        table = open_table(pages, live_server, game, "laptop", locale=f"{lang}-CA")
        table.wait_for_selector(".status-line.my-turn")
        found[f"{game} table"] = serious_violations(table)
    problems = {where: v for where, v in found.items() if v}
    assert not problems, "\n".join(f"{where}: {v}" for where, v in problems.items())


def focused(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const el = document.activeElement;
      const hand = el && el.closest('.hand[data-seat]');
      return {inHand: !!hand && el.matches('button.card'), code: el && el.dataset.code || null,
              index: el && el.dataset.index || null, legal: !!el && el.classList.contains('legal')};
    }""")


def test_a_whole_deal_with_the_keyboard_keeps_the_focus_in_the_hand(pages: Pages, live_server: Any) -> None:
    page = open_table(pages, live_server, "neuf", "laptop")
    page.wait_for_selector("[data-action=keep]")
    page.keyboard.press("ArrowRight")  # into the hand
    assert focused(page)["inHand"]
    page.keyboard.press("k")  # keep the hand
    plays = 0
    while not page.locator("dialog.summary-dialog").count():
        page.wait_for_function(
            "document.querySelector('.status-line.my-turn') || document.querySelector('dialog.summary-dialog')", timeout=20_000
        )
        if page.locator("dialog.summary-dialog").count():
            break
        # the focus is still in the hand after the others' moves (and after mine)
        assert focused(page)["inHand"], f"after {plays} cards the focus left the hand"
        page.wait_for_selector(".hand.controlled button.card.legal")
        for _ in range(14):
            if focused(page)["legal"]:
                break
            page.keyboard.press("ArrowRight")
        where = focused(page)
        assert where["legal"], "no legal card reached with the arrow keys"
        seq = page.locator(".table-shell").get_attribute("data-seq")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq !== '{seq}'")
        plays += 1
        if page.locator("dialog.summary-dialog").count():
            break  # the deal is over: its summary opens (and takes the focus)
        now = focused(page)
        assert now["inHand"], f"after playing {where['code']} the focus left the hand"
        if now["index"] is not None and where["index"] is not None and not page.locator("dialog[open]").count():
            # the card now at the same position (or the last card) holds the focus
            count = page.locator(".hand[data-seat=S] button.card").count()
            assert int(now["index"]) == min(int(where["index"]), count - 1)
    assert plays == 13
    screenshot(page, "keyboard-deal-summary")
    # closing the summary gives the focus back to the hand
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('dialog[open]')")
    assert focused(page)["inHand"]
