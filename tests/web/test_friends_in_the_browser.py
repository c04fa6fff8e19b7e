"""Two people at one table through the invite link, a spectator who sees no hidden card, and a finished match replayed."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import Pages, screenshot
from .driving import click_first

pytestmark = pytest.mark.browser

FIRST_LEGAL_CODE = "(document.querySelector('.hand.controlled button.card.legal') || {dataset: {}}).dataset.code || null"
HIDDEN_FREE = "document.querySelectorAll('.hand button.card').length"


def codes_on_page(page) -> list[str]:
    return page.eval_on_selector_all(".felt .card[data-code]", "cards => cards.map(c => c.dataset.code)")


def resting_look(live_server, table_id: str, pages: dict, timeout: float = 120) -> tuple[dict, dict]:
    """The table's state at a move where a person is to play, and what each page shows then.

    The table may move on by itself while the pages are read (a computer player's turn, or a
    single legal card played for a seat), so the look is taken again until the server's move
    number is the same before and after every page was read at that move (until a deadline:
    40 looks were once assumed enough, however slow the machine).
    """
    url = f"/api/tables/{table_id}/state"
    some_page = next(iter(pages.values()))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = live_server.api("GET", url)
        if state["view"]["to_act"] not in ("S", "W"):
            some_page.wait_for_timeout(100)
            continue
        seq = state["seq"]
        try:
            for page in pages.values():
                page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq === '{seq}'", timeout=5000)
        except PlaywrightTimeoutError:
            continue
        seen = {
            name: {
                "table": page.eval_on_selector_all(".trick .card[data-code]", "c => c.map(x => x.dataset.code)"),
                "hidden": page.evaluate(HIDDEN_FREE),
                "codes": codes_on_page(page),
            }
            for name, page in pages.items()
        }
        if live_server.api("GET", url)["seq"] == seq:
            return state, seen
    raise AssertionError(f"the table never rested at a person's turn in {timeout:.0f} s")


def test_a_friend_joins_through_the_invitation_and_a_spectator_watches(pages: Pages, live_server) -> None:
    ann = pages.new()
    ann.goto(live_server.url + "/neuf")
    ann.wait_for_selector(".setup select[name=seat-W]")
    ann.select_option(".setup select[name=seat-W]", "open")
    ann.select_option(".setup select[name=speed]", "0")
    ann.click(".setup button[type=submit]")
    ann.wait_for_selector(".notice.waiting")
    # Ann shares the invitation for West
    ann.click("[data-tool=share]")
    invite = ann.locator("[data-invite=W] input").input_value()
    spectate = ann.locator("[data-spectate] input").input_value()
    assert "join=W" in invite and "invite=" in invite and "token" not in spectate
    ann.keyboard.press("Escape")

    bea = pages.new()
    bea.goto(invite)
    bea.wait_for_selector("dialog [data-action=take-seat]")
    bea.fill("#join-name", "Bea")
    bea.click("dialog [data-action=take-seat]")
    bea.wait_for_selector(".plate.mine")
    assert "token" not in bea.url and "invite" not in bea.url  # the seat is in a cookie, not the address
    # both see the table start, each with their own hand
    ann.wait_for_selector(".status-line:not(:has-text('Waiting'))")
    assert ann.locator(".seat-list").inner_text().count("Bea") == 1
    ann_hand = set(ann.eval_on_selector_all(".hand[data-seat=S] .card", "c => c.map(x => x.dataset.code)"))
    bea_hand = set(bea.eval_on_selector_all(".hand[data-seat=W] .card", "c => c.map(x => x.dataset.code)"))
    assert len(ann_hand) == len(bea_hand) == 13 and not ann_hand & bea_hand

    watcher = pages.new()
    watcher.goto(spectate)
    watcher.wait_for_selector(".notice.spectator")

    # the two people play on; each sees the other's cards arrive on the table
    played = {"S": [], "W": []}
    deadline = time.monotonic() + 120  # a bound on failure only (200 rounds were once assumed enough)
    while len(played["S"]) < 3 or len(played["W"]) < 3:
        assert time.monotonic() < deadline, f"cards played: {played}"
        for seat, page in (("S", ann), ("W", bea)):
            if page.locator("[data-action=keep]").count():
                click_first(page, "[data-action=keep]")
            # read the card in one step in the page: between a count and a read the hand may redraw
            # (the other person played), and a locator's read then waits for a card that never comes back
            code = page.evaluate(FIRST_LEGAL_CODE)
            if code and click_first(page, f".hand.controlled button.card.legal[data-code='{code}']"):
                played[seat].append(code)
        ann.wait_for_timeout(80)
    assert len(played["S"]) >= 3 and len(played["W"]) >= 3
    # once a person is to play (the table waits), both pages are at the same move and show the
    # same cards, and the spectator sees the trick and the counts, never a hidden card
    table_id = spectate.split("t=")[1]
    state, seen = resting_look(live_server, table_id, {"ann": ann, "bea": bea, "watcher": watcher})
    assert seen["ann"]["table"] == seen["bea"]["table"]
    screenshot(bea, "neuf-two-people")
    assert seen["watcher"]["hidden"] == 0
    shown = set(seen["watcher"]["codes"])
    public = {code for trick in state["view"]["tricks_played"] for _, code in trick["plays"]}
    if state["view"]["trick"]:
        public |= {code for _, code in state["view"]["trick"]["plays"]}
    assert not shown & (ann_hand - public)
    assert not shown & (bea_hand - public)
    assert shown <= public
    screenshot(watcher, "neuf-spectator")


def test_a_finished_match_is_replayed_deal_by_deal_and_downloaded(pages: Pages, live_server) -> None:
    seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
    created = live_server.api(
        "POST",
        "/api/tables",
        {"game": "neuf", "seats": seats, "options": {"start_score": 1}, "bot_delay_ms": 0, "seed": 12},
    )
    table_id = created["table"]["id"]
    page = pages.new()
    page.goto(f"{live_server.url}/neuf?t={table_id}")
    page.wait_for_selector(".notice.over", timeout=60_000)
    if page.locator("dialog.summary-dialog").count():  # the last deal ended while the page watched
        page.keyboard.press("Escape")
    download = page.locator(".notice.over a[download]")
    assert download.get_attribute("href") == f"/api/tables/{table_id}/record"
    page.click("[data-tool=replay]")
    page.wait_for_selector(".replay-felt .felt")
    assert page.locator(".replay-step").inner_text().startswith("Step 0")
    # the replay shows every hand face up, move by move
    assert page.locator(".replay-felt .hand.open .card").count() >= 26
    page.click("[data-step=next]")
    page.wait_for_selector(".replay-move")
    for _ in range(6):
        page.click("[data-step=next]")
    assert page.locator(".replay-step").inner_text().startswith("Step 7")
    screenshot(page, "neuf-replay")
    with page.expect_download() as info:
        page.keyboard.press("Escape")
        page.click(".notice.over a[download]")
    assert info.value.suggested_filename == f"nines-neuf-{table_id}.json"
