"""Tables with a life, in the browser: the clock of the seat to act, the stand-in mark, a copied address
opened elsewhere (a spectator), a used link refused clearly, and play again after the match."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Pages, screenshot

BOTS = {"W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}


def new_table(live_server: Any, **extra: Any) -> dict[str, Any]:
    body = {"game": "neuf", "seats": {"S": {"kind": "me"}, **BOTS}, "name": None, "bot_delay_ms": 0, **extra}
    return live_server.api("POST", "/api/tables", body)


def test_the_clock_runs_out_and_a_stand_in_moves_marked(pages: Pages, live_server: Any) -> None:
    seated = new_table(live_server, clock_s=3)
    ann = pages.new()
    ann.goto(live_server.url + seated["url"])
    clock = ann.wait_for_selector(".turn-clock[data-clock-seat=S]:not([hidden])")
    assert re.search(r"0:0[0-3]", clock.inner_text())
    # the claim was spent: the address shows only the table
    assert re.fullmatch(r".*/neuf\?t=\w+", ann.url), ann.url
    screenshot(ann, "clock-running")
    # Ann lets her time run out: a stand-in decides for her, and the page says so
    ann.wait_for_selector(".notice.stand-in[data-stand-in=S]", timeout=20_000)
    screenshot(ann, "clock-stand-in")
    stored = live_server.api("GET", f"/api/tables/{seated['table']['id']}")
    assert stored["seq"] >= 1


def test_a_copied_address_watches_and_a_used_link_is_refused(pages: Pages, live_server: Any) -> None:
    seated = new_table(live_server, away_s=2)
    ann = pages.new()
    ann.goto(live_server.url + seated["url"])
    ann.wait_for_selector(".table-shell .felt .plate.mine")
    copied = ann.url
    # the address bar's address, opened in another browser: a spectator, never a second holder
    bea = pages.new()
    bea.goto(copied)
    bea.wait_for_selector(".notice.spectator")
    assert bea.locator(".plate.mine").count() == 0
    # the one-time link itself, opened late: the seat is taken, say so and offer to watch
    cy = pages.new()
    cy.goto(live_server.url + seated["url"])
    dialog = cy.wait_for_selector("[data-refused=seat]")
    assert "already used" in dialog.inner_text()
    screenshot(cy, "used-link-refused")
    cy.click("[data-refused=seat] [data-action=watch]")
    cy.wait_for_selector(".notice.spectator")
    # (the browser logs the refused claim's 409 as a failed resource: that refusal is the point here)
    pages.errors[:] = [e for e in pages.errors if "409 (Conflict)" not in e]
    # Ann leaves: after away_s a stand-in plays her seat and the spectators see the mark
    ann.close()
    bea.wait_for_selector(".seat-list .stand-in-mark", timeout=20_000)


def test_play_again_takes_everyone_who_accepts_to_a_new_table(pages: Pages, live_server: Any) -> None:
    seated = new_table(live_server, away_s=1, options={"start_score": 1})
    table_id = seated["table"]["id"]
    watcher = pages.new()  # someone watches, so the stand-in plays Ann's seat while she is away
    watcher.goto(f"{live_server.url}/neuf?t={table_id}")
    watcher.wait_for_selector(".notice.over", timeout=120_000)
    # invitations are gone once the match is over
    assert watcher.locator("[data-tool=share]").count() == 0
    ann = pages.new()
    ann.goto(live_server.url + seated["url"])
    ann.wait_for_selector(".notice.over [data-again=yes]")
    screenshot(ann, "play-again-offer")
    ann.click(".notice.over [data-again=yes]")
    ann.wait_for_url(re.compile(r".*/neuf\?t=(?!" + table_id + r")\w+$"), timeout=20_000)
    ann.wait_for_selector(".table-shell .felt .plate.mine")
    new_id = ann.url.rsplit("t=", 1)[1]
    info = live_server.api("GET", f"/api/tables/{new_id}")
    # a match of one deal whose person was away (away_s=1) between the two pages can end within a second, its
    # stand-in and computer players moving at once: over is as good as playing here (not waiting for answers)
    assert info["status"] in ("playing", "over"), info["status"]
    assert {s["seat"]: s["kind"] for s in info["seats"]} == {"S": "human", "W": "bot", "E": "bot"}
    # the watcher of the old table is offered the next match
    watcher.locator("[data-again=watch]").first.wait_for(state="attached", timeout=60_000)  # not 50 polls of 0.1 s, then on regardless
    assert live_server.api("GET", f"/api/tables/{table_id}")["again"]["answers"] == {"S": "accepted"}


def test_the_lobby_lists_open_seats_and_tables_to_watch_apart(pages: Pages, live_server: Any) -> None:
    open_seat = live_server.api("POST", "/api/tables", {"game": "neuf", "public": True, "seats": {
        "S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}}})
    watch = live_server.api("POST", "/api/tables", {"game": "neuf", "public": True, "bot_delay_ms": 900, "seats": {
        "S": {"kind": "bot", "bot": "basic"}, **BOTS}})
    private = new_table(live_server)
    page = pages.new()
    page.goto(live_server.url + "/")
    page.wait_for_selector(f"[data-lobby=openSeats] [data-table='{open_seat['table']['id']}'] [data-take=W]")
    page.wait_for_selector(f"[data-lobby=toWatch] [data-table='{watch['table']['id']}']")
    assert page.locator(f"[data-table='{private['table']['id']}']").count() == 0
    # its computer players move 0.9 s apart: the page may come before the first move or after it
    ago = page.locator(f"[data-lobby=toWatch] [data-table='{watch['table']['id']}'] .moved-ago").inner_text()
    assert ago.startswith("last move") or ago.endswith("no move yet"), ago
    # the setup offers a clock (off, 20, 45, 90 s) and makes private tables unless asked
    page.wait_for_selector(".setup select[name=clock]")
    assert page.locator(".setup select[name=clock] option").count() == 4
    assert not page.locator(".setup input[name=public]").is_checked()
    screenshot(page, "home-lobby", full_page=True)
