"""Attack: replays of a long finished match asked for at once, within an address's reads a minute.

Found by the attack pass (``benchmarks/api_flood.py --kind replay --late neuf --concurrency 16``, real
``nines serve``, SQLite): anyone may make a computer-only Le Neuf table starting at 99 points, played out in
8 s (171 deals, 7,182 moves), and each deal's replay replays the match up to it (the last: 0.3 s of CPU,
787 kB).  Replays were worked out in the default thread pool, every one asked for at once: 16 at a time from
one address held the threads every database call waits for; ``/health`` answered in 2.0 s (its ping timed
out: the server said it was degraded) and the server's core was 134% busy.  Now replays are worked out one at
a time in a thread of their own, at most ``MOST_REPLAYING`` (4) worked out or waiting (more are refused,
``server.replay_busy``), and one deal asked for twice at once is worked out once: ``/health`` 15 ms p50 under
the same flood.

And a GET of a long finished table no longer kept (64 are) rebuilds it from its log: 0.4 s of CPU for that
match, in the default pool too, with no bound but the address's API requests (1200 a minute, 16 at once).
Tables are now rebuilt in threads of their own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from starlette.testclient import TestClient

import nines.server.records.replay as replay_module

from ..waiting import wait_until
from .helpers import create_table, me_and_bots, wait_for


def test_replays_are_worked_out_in_their_own_thread_a_bounded_number_at_once(client: TestClient,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], None), options={"start_score": 15})
    table_id = seated["table"]["id"]
    wait_for(client, table_id, lambda s: s["table"]["status"] == "over")
    deals = client.get(f"/api/tables/{table_id}/replay/1").json()["deals"]
    assert deals >= replay_module.MOST_REPLAYING + 2, deals
    release = threading.Event()
    worked: list[tuple[int, str]] = []
    original: Callable[..., dict[str, Any]] = replay_module.deal_frames

    def held(table: Any, number: int) -> dict[str, Any]:
        worked.append((number, threading.current_thread().name))
        release.wait(30)
        return original(table, number)

    monkeypatch.setattr(replay_module, "deal_frames", held)
    with ThreadPoolExecutor(8) as asking:
        # deals 2 to 5 held, deal 2 asked for twice: four replays under way or waiting
        asked = [asking.submit(client.get, f"/api/tables/{table_id}/replay/{n}") for n in (2, 2, 3, 4, 5)]
        replays = client.app.state.replays  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60  # a bound on failure only: the four deals are under way or waiting
        while sum(1 for frames in replays._kept.values() if not frames.done()) < replay_module.MOST_REPLAYING:
            assert time.monotonic() < deadline, "the replays asked for did not arrive"
            threading.Event().wait(0.02)
        refused = client.get(f"/api/tables/{table_id}/replay/6")
        assert client.get("/health").json()["database"] == "ok"  # the database's threads are free
        release.set()
        answers = [future.result(timeout=60) for future in asked]
    assert refused.status_code == 429, refused.text
    said = refused.json()
    assert said["key"] == "server.replay_busy" and said["params"] == {"count": 4}, said
    assert [answer.status_code for answer in answers] == [200] * 5
    assert answers[0].json() == answers[1].json() and answers[0].json()["deal"] == 2
    assert sorted(number for number, _ in worked) == [2, 3, 4, 5]  # deal 2 once
    assert {name.split("_")[0] for _, name in worked} == {"nines-replay"}  # not the default pool's threads
    assert client.get(f"/api/tables/{table_id}/replay/6").status_code == 200  # the replays done, more are worked out


def test_a_table_is_rebuilt_from_its_log_in_a_thread_of_its_own(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], None), options={"start_score": 3})
    table_id = seated["table"]["id"]
    wait_for(client, table_id, lambda s: s["table"]["status"] == "over")
    manager = client.app.state.manager  # type: ignore[attr-defined]
    # the computer players' task lets go of the table as it ends: waited for until a generous deadline (200 looks
    # 20 ms apart went on regardless after 4 s, and a table still held was then read, not rebuilt)
    wait_until(lambda: table_id not in manager.tables, timeout=60, what="the finished table to be let go")
    manager._finished.clear()  # no longer kept: the next GET rebuilds it
    rebuilt_in: list[str] = []
    original = manager._rebuild
    monkeypatch.setattr(manager, "_rebuild", lambda stored: rebuilt_in.append(threading.current_thread().name) or original(stored))
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
    assert [name.split("_")[0] for name in rebuilt_in] == ["nines-rebuild"]  # not the default pool's threads
