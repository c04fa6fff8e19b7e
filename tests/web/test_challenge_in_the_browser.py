"""The daily challenge played to the end in the browser at phone and laptop size, the day's standings, the
leaderboard and a profile with its rating chart: in both languages, axe-clean (look at the screenshots)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nines.ratings import Skill

from .conftest import Pages, _free_port, screenshot
from .driving import click_first, rummy_step
from .seating import SIZES
from .test_accessibility import serious_violations

pytestmark = pytest.mark.browser

DAY = dt.date(2026, 12, 7)


class ChallengeServer:
    """The real app under uvicorn, its day fixed and its challenge's computer players quick (``basic``)."""

    def __init__(self, data: Path) -> None:
        import uvicorn

        from nines.server import ServerConfig, create_app
        from nines.server.guard.limits import Limits

        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(ServerConfig(
            database_url=f"sqlite:///{data / 'nines.db'}", bot_delay_ms=30, log_json=False, review_processes=False,
            today=lambda: DAY, challenge_key=b"browser-test-challenge-key-32byt", challenge_bot="basic",
            limits=Limits(live_tables_per_address=10_000, tables_per_minute=10_000, lobby_per_minute=10_000, requests_per_minute=0)))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_config=None,
                                                   access_log=False, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChallengeServer]:
    made = ChallengeServer(tmp_path_factory.mktemp("challenge"))
    yield made
    made.stop()


def _over(page: Any) -> bool:
    if page.locator("dialog.summary-dialog").count():  # a hand ended: go on to the next
        click_first(page, "dialog.summary-dialog .dialog-actions button")
    return page.locator(".notice.over").count() > 0


@pytest.mark.parametrize("size", list(SIZES))
def test_a_challenge_played_to_the_end_then_the_standings(pages: Pages, server: ChallengeServer, size: str) -> None:
    name = f"Ann-{size}"
    page = pages.new(prefs={"autoplay": False, "name": name}, **SIZES[size])
    page.goto(f"{server.url}/challenge/rummy")
    page.get_by_role("button", name="Play today's challenge").click()
    page.wait_for_selector(".table-shell .felt")
    assert "/rummy?t=" in page.url
    deadline = time.monotonic() + 400
    while not _over(page):
        assert time.monotonic() < deadline, "the challenge did not end"
        rummy_step(page)
        page.wait_for_timeout(60)
    page.wait_for_timeout(400)
    if page.locator("dialog.summary-dialog").count():  # the last hand's summary opens over the end
        page.locator("dialog.summary-dialog .dialog-actions button").click()
    screenshot(page, f"challenge-over-{size}")
    page.locator("[data-tool=standings]").click()
    page.wait_for_selector("table.challenge-standings")
    assert name in page.locator("table.challenge-standings").inner_text()
    page.wait_for_selector("table.challenge-spread")
    assert page.locator("table.challenge-spread tbody tr").count() == 3
    screenshot(page, f"challenge-standings-{size}", full_page=True)
    assert serious_violations(page) == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_profile_chart_and_the_leaderboard(pages: Pages, server: ChallengeServer, size: str, lang: str) -> None:
    standing = server.app.state.standing
    skill = Skill(25.0, 8.0, 0)
    for n in range(6):  # a person's rated matches, and a settled rival for the leaderboard
        after = Skill(skill.mu + (1.5 if n % 3 else -0.8), skill.sigma - 0.4, skill.matches + 1)
        standing.record_ratings("neuf", f"prof-{lang}-{size}-{n}", {"Bea": skill}, {"Bea": after})
        skill = after
    standing.record_ratings("neuf", f"settled-{lang}-{size}", {}, {"Cy": Skill(28.0, 4.0, 40)})
    page = pages.new(locale=f"{lang}-CA", **SIZES[size])
    page.goto(f"{server.url}/people/Bea")
    page.wait_for_selector("figure.profile-chart img")
    page.wait_for_function("() => document.querySelector('figure.profile-chart img').naturalWidth > 0")
    assert page.locator("table.profile-matches tbody tr").count() >= 6
    screenshot(page, f"profile-{lang}-{size}", full_page=True)
    assert serious_violations(page) == []
    page.goto(f"{server.url}/ratings/neuf")
    page.wait_for_selector("table.ratings-table")
    assert "Cy" in page.locator("table.ratings-table").inner_text()
    screenshot(page, f"ratings-{lang}-{size}")
    assert serious_violations(page) == []
    page.goto(f"{server.url}/challenge/neuf/2026-12-06")
    page.wait_for_selector("h2")
    assert serious_violations(page) == []
