"""A day's challenge standings at the server: the same rows as the rules read literally, on SQLite and PostgreSQL,
and worked out once for the requests that ask meanwhile, again once an entry finishes."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from nines.server.store.database import Store
from nines.server.store.schema import ChallengeEntryRow
from nines.server.store.standing import Standing
from nines.server.tables import standings as standings_module
from nines.server.tables.standings import DayStandings
from tests.challenge.test_challenge import pairwise_standings

from ..waiting import until

DAY = "2026-12-07"


def _entries(rng: random.Random, count: int) -> list[dict[str, Any]]:
    rows = []
    for index in range(count):
        results = [float(rng.randint(-3, 3)) for _ in range(6)]  # seven distinct results: many ties
        finished = rng.random() < 0.9
        rows.append({"day": DAY, "game": "neuf", "name": f"p{index:04d}", "table_id": f"t{index:04d}", "seat": "S",
                     "results": results if finished else results[:3], "finished": finished})
    # the same names another day and in another game are not this day's
    rows.append({"day": "2026-12-06", "game": "neuf", "name": "p0000", "table_id": "old", "seat": "S", "results": [9.0] * 6,
                 "finished": True})
    rows.append({"day": DAY, "game": "rummy", "name": "p0001", "table_id": "rummy", "seat": "1", "results": [0.0] * 3,
                 "finished": True})
    return rows


@pytest.mark.databases
def test_the_standings_over_http_are_the_pairwise_ones(database_url: str, make_client: Callable[..., TestClient]) -> None:
    store = Store(database_url)
    store.migrate()
    rows = _entries(random.Random(7), 400)
    with store.engine.begin() as connection:
        connection.execute(insert(ChallengeEntryRow), rows)
    store.close()
    expected = pairwise_standings({r["name"]: r["results"] for r in rows
                                   if r["day"] == DAY and r["game"] == "neuf" and r["finished"]})
    with make_client(today=lambda: dt.date(2026, 12, 8)) as client:
        answer = client.get(f"/api/challenge/neuf/{DAY}")
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        assert answer.json() == expected
        assert len(expected) > 300 and len({r["percent"] for r in expected}) < len(expected)  # ties in the averages
        profile = client.get(f"/api/people/{expected[5]['name']}/profile").json()
        assert [c["percent"] for c in profile["challenges"] if c["day"] == DAY] == [expected[5]["percent"]]


class _CountingStanding:
    """A stand-in for the store: counts how often the day's results are read, each read slowed a little."""

    def __init__(self) -> None:
        self.results: dict[str, list[float]] = {"ann": [1.0, 2.0]}
        self.reads = 0

    def day_results(self, day: str, game: str) -> dict[str, list[float]]:
        self.reads += 1
        time.sleep(0.05)
        return dict(self.results)


def test_the_standings_are_worked_out_once_for_the_requests_asking_meanwhile_and_again_after_a_finish() -> None:
    standing = _CountingStanding()
    kept = DayStandings(standing, fresh_s=3600)  # type: ignore[arg-type]

    async def scenario() -> None:
        answers = await asyncio.gather(*(kept.get(DAY, "neuf") for _ in range(8)))
        assert standing.reads == 1 and {a.body for a in answers} == {b'[{"name":"ann","percent":50.0,"deals":[50.0,50.0]}]'}
        assert (await kept.get(DAY, "neuf")).percent == {"ann": 50.0} and standing.reads == 1  # kept
        await kept.get(DAY, "rummy")
        assert standing.reads == 2  # each (day, game) its own
        # an entry finishes while the standings are being worked out: those asking after it get it
        first = asyncio.ensure_future(kept.get(DAY, "neuf"))
        kept.changed(DAY, "neuf")
        # the working out under way (its read of the day's results begun): waited for, not a fixed 10 ms
        await until(lambda: standing.reads == 3, what="the standings being worked out")
        standing.results["bob"] = [3.0, 0.0]
        kept.changed(DAY, "neuf")
        second = await kept.get(DAY, "neuf")
        await first
        assert second.percent == {"ann": 50.0, "bob": 50.0}
        assert (await kept.get(DAY, "neuf")) is second

    asyncio.run(scenario())


def test_kept_standings_are_worked_out_again_after_a_while() -> None:
    standing = _CountingStanding()
    now = [1000.0]
    kept = DayStandings(standing, fresh_s=2.0, clock=lambda: now[0])  # type: ignore[arg-type]

    async def scenario() -> None:
        await kept.get(DAY, "neuf")
        now[0] += 1.5
        await kept.get(DAY, "neuf")
        assert standing.reads == 1
        now[0] += 1.0  # another process's finished entries show within fresh_s
        await kept.get(DAY, "neuf")
        assert standing.reads == 2

    asyncio.run(scenario())


def test_few_days_are_kept() -> None:
    standing = _CountingStanding()
    kept = DayStandings(standing, fresh_s=3600)  # type: ignore[arg-type]

    async def scenario() -> None:
        for day in range(40):
            await kept.get(f"2026-01-{day:02d}", "neuf")
        assert len(kept._kept) == standings_module.KEPT_DAYS

    asyncio.run(scenario())


@pytest.mark.databases
def test_the_store_reads_a_days_results_as_they_were_written(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    standing = Standing(store)
    with store.engine.begin() as connection:
        connection.execute(insert(ChallengeEntryRow), [
            {"day": DAY, "game": "neuf", "name": "ann", "table_id": "t1", "seat": "S", "results": [1.5, -2.0], "finished": True},
            {"day": DAY, "game": "neuf", "name": "b\u00e9a \"q\"", "table_id": "t2", "seat": "S", "results": [], "finished": True},
            {"day": DAY, "game": "neuf", "name": "cy", "table_id": "t3", "seat": "S", "results": [3.0], "finished": False},
        ])
    assert standing.day_results(DAY, "neuf") == {"ann": [1.5, -2.0], "b\u00e9a \"q\"": []}
    assert standing.day_results(DAY, "rummy") == {}
    # each deal's spread reads the tables too, the same way
    assert standing.day_tables(DAY, "neuf") == {"ann": ("t1", [1.5, -2.0]), "b\u00e9a \"q\"": ("t2", [])}
    assert standing.day_tables(DAY, "rummy") == {}
    store.close()
