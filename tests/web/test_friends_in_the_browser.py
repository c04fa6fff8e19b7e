"""Two people at one table through the invite link, a spectator who sees no hidden card, and a finished match replayed."""

from __future__ import annotations

import pytest

from .conftest import Pages, screenshot
from .driving import click_first

pytestmark = pytest.mark.browser

HIDDEN_FREE = "document.querySelectorAll('.hand button.card').length"


def codes_on_page(page) -> list[str]:
    return page.eval_on_selector_all(".felt .card[data-code]", "cards => cards.map(c => c.dataset.code)")


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
    assert "#seat=W&token=" in bea.url
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
    for _ in range(200):
        if len(played["S"]) >= 3 and len(played["W"]) >= 3:
            break
        for seat, page in (("S", ann), ("W", bea)):
            if page.locator("[data-action=keep]").count():
                click_first(page, "[data-action=keep]")
            legal = page.locator(".hand.controlled button.card.legal")
            if legal.count():
                code = legal.first.get_attribute("data-code")
                if click_first(page, f".hand.controlled button.card.legal[data-code='{code}']"):
                    played[seat].append(code)
        ann.wait_for_timeout(80)
    assert len(played["S"]) >= 3 and len(played["W"]) >= 3
    # once a person is to play (the table waits), both pages are at the same move and show the same cards
    table_id = spectate.split("t=")[1]
    for _ in range(100):
        state = live_server.api("GET", f"/api/tables/{table_id}/state")
        if state["view"]["to_act"] in ("S", "W"):
            break
        ann.wait_for_timeout(50)
    seq = state["seq"]
    for page in (ann, bea):
        page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq === '{seq}'")
    on_table = ".trick .card[data-code]"
    assert ann.eval_on_selector_all(on_table, "c => c.map(x => x.dataset.code)") == bea.eval_on_selector_all(on_table, "c => c.map(x => x.dataset.code)")
    screenshot(bea, "neuf-two-people")

    # the spectator sees the trick and the counts, never a hidden card
    # (compared with what the server says was played at the same move: a card may have been
    # played for a seat without the test clicking it, by the auto-play of a single legal card)
    watcher.wait_for_function(f"document.querySelector('.table-shell').dataset.seq === '{seq}'")
    assert watcher.evaluate(HIDDEN_FREE) == 0
    shown = set(codes_on_page(watcher))
    public = {code for trick in state["view"]["tricks_played"] for _, code in trick["plays"]}
    if state["view"]["trick"]:
        public |= {code for _, code in state["view"]["trick"]["plays"]}
    assert not shown & (ann_hand - public)
    assert not shown & (bea_hand - public)
    assert shown <= public
    screenshot(watcher, "neuf-spectator")


def test_a_finished_match_is_replayed_deal_by_deal_and_downloaded(pages: Pages, live_server) -> None:
    seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
    created = live_server.api("POST", "/api/tables", {"game": "neuf", "seats": seats, "options": {"start_score": 1}, "bot_delay_ms": 0, "seed": 12})
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
    page.wait_for_selector(".replay-move code")
    for _ in range(6):
        page.click("[data-step=next]")
    assert page.locator(".replay-step").inner_text().startswith("Step 7")
    screenshot(page, "neuf-replay")
    with page.expect_download() as info:
        page.keyboard.press("Escape")
        page.click(".notice.over a[download]")
    assert info.value.suggested_filename == f"nines-neuf-{table_id}.json"
