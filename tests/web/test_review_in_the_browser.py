"""The review in the browser: in the deal summary and, step by step, in the replay."""

from __future__ import annotations

import pytest

from .conftest import Pages, screenshot

pytestmark = pytest.mark.browser


def test_the_review_shows_in_the_summary_and_in_the_replay(pages: Pages, live_server) -> None:
    seats = {s: {"kind": "bot", "bot": "random"} for s in ("S", "W", "E")}
    created = live_server.api(
        "POST", "/api/tables", {"game": "neuf", "seats": seats, "options": {"start_score": 1}, "bot_delay_ms": 0, "seed": 21}
    )
    table_id = created["table"]["id"]
    record_deals = None
    page = pages.new()
    page.goto(f"{live_server.url}/neuf?t={table_id}")
    page.wait_for_selector(".notice.over", timeout=60_000)
    if page.locator("dialog.summary-dialog").count():
        page.keyboard.press("Escape")
    record_deals = live_server.api("GET", f"/api/tables/{table_id}/record")["deals"]
    last = record_deals[-1]
    # the deal summary: every card marked by its cost, each player's total
    page.click("[data-tool=summary]")
    review = page.locator("dialog.summary-dialog .review-panel .review")
    review.wait_for(timeout=30_000)
    assert review.get_attribute("data-review-deal") == str(last["number"])
    assert "as if every trick were played out" in review.locator(".review-measure").inner_text()
    assert review.locator(".review-play").count() == 39
    assert review.locator(".review-totals tbody tr").count() == 3
    costly = review.locator(".review-play.costly")
    for i in range(costly.count()):
        # the best cards, or "any heart" / "any card but ..." when many are equally best
        best = costly.nth(i).locator(".review-best")
        assert best.locator(".review-card").count() >= 1 or "any " in best.inner_text()
    served = live_server.api("GET", f"/api/tables/{table_id}/review/{last['number']}")
    assert costly.count() == sum(1 for p in served["plays"] if p["cost"])
    screenshot(page, "neuf-summary-review", full_page=True)
    page.keyboard.press("Escape")
    # the replay: at the first card of deal 1, the value of every legal card of the seat to play
    page.click("[data-tool=replay]")
    page.wait_for_selector(".replay-felt .felt")
    page.wait_for_selector(".replay-review .review")
    first_play = next(i for i, a in enumerate(record_deals[0]["actions"]) if a["action"] == "play")
    for _ in range(first_play):
        page.click("[data-step=next]")
    values = page.locator(".review-values")
    values.wait_for()
    assert values.get_attribute("data-step") == str(first_play)
    played = record_deals[0]["actions"][first_play]["card"]
    assert values.locator(f"li.played[data-card='{played}']").count() == 1
    assert values.locator("li.best").count() >= 1
    review1 = live_server.api("GET", f"/api/tables/{table_id}/review/1")
    assert values.locator("li").count() == len(review1["plays"][0]["scores"])
    screenshot(page, "neuf-replay-review")
