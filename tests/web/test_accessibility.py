"""Accessibility: axe-core finds no serious or critical violation on the pages and at a table in play, in English
and French; a whole deal played with the keyboard alone keeps the focus in the hand."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, screenshot
from .seating import OTHER_LANG_SIZE_PAIRS, SIZES, open_table

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


@pytest.mark.parametrize(("lang", "size"), OTHER_LANG_SIZE_PAIRS)
def test_no_serious_violation_on_the_pages_and_at_the_tables(pages: Pages, live_server: Any, lang: str, size: str) -> None:
    """On a phone (touch) and on a laptop: the phone's compact header, toolbar and action bar are checked too."""
    page = pages.new(locale=f"{lang}-CA", **SIZES[size])
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
        table = open_table(pages, live_server, game, size, locale=f"{lang}-CA")
        table.wait_for_selector(".status-line.my-turn")
        found[f"{game} table"] = serious_violations(table)
    problems = {where: v for where, v in found.items() if v}
    assert not problems, "\n".join(f"{where}: {v}" for where, v in problems.items())


def focused(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const el = document.activeElement;
      const hand = el && el.closest('.hand[data-seat]');
      return {inHand: !!hand && el.matches('button.card'), code: el && el.dataset.code || null,
              index: el && el.dataset.index || null, legal: !!el && el.classList.contains('legal'),
              controlled: !!hand && hand.classList.contains('controlled'),
              // read in the same instant: a dialog open (the deal's summary), and cards in hands to hold the focus
              dialog: !!document.querySelector('dialog[open]'),
              cards: document.querySelectorAll('.hand[data-seat] button.card').length};
    }""")


def close_summary_and_expect_the_focus_in_the_hand(page: Any) -> None:
    """Escape closes the deal's summary and the hand takes the focus back. The dialog's ``close`` event (which
    removes it and hands the focus back) is a task queued after ``open`` goes, so wait for the dialog to go, then
    for the focus to arrive (until the page's deadline, 60 s: a bound on failure only)."""
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('dialog')")
    try:
        page.wait_for_function("document.activeElement && document.activeElement.matches('.hand[data-seat] button.card')")
    except Exception as error:  # playwright's TimeoutError: say where the focus went instead
        raise AssertionError(f"closing the summary left the focus out of the hand: {focus_report(page)}") from error


def test_a_whole_deal_with_the_keyboard_keeps_the_focus_in_the_hand(pages: Pages, live_server: Any) -> None:
    page = open_table(pages, live_server, "neuf", "laptop")
    page.wait_for_selector("[data-action=keep]")
    page.keyboard.press("ArrowRight")  # into the hand
    assert focused(page)["inHand"]
    page.keyboard.press("k")  # keep the hand
    plays = 0
    while not page.locator("dialog.summary-dialog").count():
        page.wait_for_function(
            "document.querySelector('.status-line.my-turn') || document.querySelector('dialog.summary-dialog')"
        )
        if page.locator("dialog.summary-dialog").count():
            break
        # the focus is still in the hand after the others' moves (and after mine)
        assert focused(page)["inHand"], f"after {plays} cards the focus left the hand"
        page.wait_for_selector(".hand.controlled button.card.legal")
        where = arrow_to(page, lambda f: f["legal"])
        seq = page.locator(".table-shell").get_attribute("data-seq")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq !== '{seq}'")
        plays += 1
        if page.locator("dialog.summary-dialog").count():
            break  # the deal is over: its summary opens (and takes the focus)
        # the played card leaves the hand as the table is drawn anew: the focus settles on another card of it
        # (or the summary opens); waited for, with a deadline, not read at the instant the move was taken
        try:
            page.wait_for_function(
                "document.querySelector('dialog.summary-dialog') || (document.activeElement"
                " && document.activeElement.matches('.hand[data-seat] button.card'))")
        except Exception as error:  # playwright's TimeoutError: say where the focus went instead
            raise AssertionError(f"after playing {where['code']} the focus left the hand: {focus_report(page)}") from error
        now = focused(page)
        if now["index"] is not None and where["index"] is not None and not page.locator("dialog[open]").count():
            # the card now at the same position (or the last card) holds the focus
            count = page.locator(".hand[data-seat=S] button.card").count()
            assert int(now["index"]) == min(int(where["index"]), count - 1)
    assert plays == 13
    screenshot(page, "keyboard-deal-summary")
    close_summary_and_expect_the_focus_in_the_hand(page)


def focus_report(page: Any) -> str:
    """Where the focus is and what the hands hold (for a failure's message)."""
    return page.evaluate("""() => {
      const el = document.activeElement;
      const hands = [...document.querySelectorAll('.hand[data-seat]')].map((h) => h.dataset.seat + ': '
        + [...h.querySelectorAll('.card')].map((c) => (c.tagName === 'BUTTON' ? '' : '~') + (c.dataset.code || '')).join(' '));
      const dialogs = [...document.querySelectorAll('dialog[open]')].map((d) => d.className).join(', ') || 'none';
      const legal = [...document.querySelectorAll('.hand button.card.legal')].map((c) => c.dataset.code).join(' ');
      return `focus on ${el ? el.tagName + ' ' + (el.dataset.code || el.className) : 'nothing'}; hands ${hands.join(' | ')};`
        + ` legal ${legal || 'none'}; dialogs open ${dialogs};`
        + ` seq ${document.querySelector('.table-shell').dataset.seq}; status ${document.querySelector('.status-line').textContent}`;
    }""")


def wait_for_turn_or_summary(page: Any) -> bool:
    """Wait until the person has a move to make (True) or the deal's summary is open (False)."""
    page.wait_for_function(
        "(document.querySelector('.status-line.my-turn') && document.querySelectorAll('datalist option').length)"
        " || document.querySelector('dialog.summary-dialog')")
    return not page.locator("dialog.summary-dialog").count()


def legal(page: Any) -> list[str]:
    return page.eval_on_selector_all("datalist option", "options => options.map(o => o.value)")


def press_and_wait(page: Any, key: str) -> None:
    """A key that makes a move: wait until the table has taken it."""
    seq = page.locator(".table-shell").get_attribute("data-seq")
    page.keyboard.press(key)
    page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq !== '{seq}'")


def arrow_to(page: Any, wanted: Any, limit: int = 30) -> dict[str, Any]:
    """Arrow through the hand (the arrow keys only) until the focused card is one ``wanted`` accepts."""
    for _ in range(limit):
        where = focused(page)
        if wanted(where):
            return where
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no wanted card reached with the arrow keys: {focus_report(page)}; {focused(page)}")


def test_a_whole_elyigit_deal_with_the_keyboard_keeps_the_focus_in_the_hand(pages: Pages, live_server: Any) -> None:
    page = open_table(pages, live_server, "elyigit", "laptop", seed=11)
    page.wait_for_selector(".bid-row [data-action]")
    page.keyboard.press("ArrowRight")  # into the hand
    assert focused(page)["inHand"]
    moves = 0
    while wait_for_turn_or_summary(page):
        # the focus is still in a hand after the others' moves (and after mine)
        assert focused(page)["inHand"], f"after {moves} moves the focus left the hand: {focus_report(page)}"
        offered = legal(page)
        bids = sorted(int(a.split()[1]) for a in offered if a.startswith("bid "))
        trumps = [a.split()[1] for a in offered if a.startswith("trump ")]
        if bids or "pass" in offered:
            standing = page.locator(".side-game").get_attribute("data-high-bid")
            # the lowest bid when nobody has bid (a digit key), otherwise pass (P)
            press_and_wait(page, str(bids[0]) if bids and bids[0] <= 9 and not standing else "p")
        elif trumps:
            press_and_wait(page, {"S": "s", "H": "h", "D": "d", "C": "c", "NT": "n"}[trumps[0]])
        else:
            page.wait_for_selector(".hand.controlled button.card.legal")
            where = arrow_to(page, lambda f: f["legal"] and f["controlled"])
            press_and_wait(page, "Enter")
            # (the deal's summary takes the focus; the last card played leaves none to hold it until the next deal)
            now = focused(page)
            assert now["inHand"] or now["dialog"] or not now["cards"], (
                f"after playing {where['code']} the focus left the hand: {focus_report(page)}")
        moves += 1
    assert moves >= 13
    close_summary_and_expect_the_focus_in_the_hand(page)


def test_a_whole_rummy_hand_with_the_keyboard_keeps_the_focus_in_the_hand(pages: Pages, live_server: Any) -> None:
    page = open_table(pages, live_server, "rummy", "laptop")
    page.wait_for_selector("button[data-pile=stock].legal")
    page.keyboard.press("ArrowRight")  # into the hand, while it is time to draw
    assert focused(page)["inHand"], "the hand takes the focus while the person is to draw"
    turns = 0
    while wait_for_turn_or_summary(page):
        assert focused(page)["inHand"], f"after {turns} turns the focus left the hand: {focus_report(page)}"
        if "draw stock" in legal(page):
            press_and_wait(page, "s")  # S draws from the stock
            assert focused(page)["inHand"], f"after drawing the focus left the hand: {focus_report(page)}"
            continue
        discards = {a.split()[1] for a in legal(page) if a.startswith("discard ")}
        where = arrow_to(page, lambda f, discards=discards: f["code"] in discards)
        page.keyboard.press("Enter")  # select the card
        page.wait_for_selector(f".rummy-hand button.card.selected[data-code='{where['code']}']")
        assert focused(page)["code"] == where["code"], "selecting a card keeps the focus on it"
        press_and_wait(page, "x")  # X discards the selected card
        turns += 1
        now = focused(page)  # (the hand's summary takes the focus)
        assert now["inHand"] or now["dialog"], f"after discarding {where['code']} the focus left the hand: {focus_report(page)}"
    assert turns >= 3
    screenshot(page, "keyboard-rummy-summary")
    close_summary_and_expect_the_focus_in_the_hand(page)
