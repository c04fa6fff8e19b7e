"""The computer players' ratings anchored by the server itself: the anchor matches a game lacks, played at start
in a worker process at the lowest priority, once (numbered ids), stopped with the server, and none when off."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from starlette.testclient import TestClient

from nines.ratings.anchor import anchor_matches
from nines.server.anchoring import ANCHOR_NICENESS, anchor_game, anchor_goals, anchor_table_id
from nines.server.store.database import Store
from nines.server.store.standing import Standing

from ..waiting import wait_until

CHEAP = ("random", "basic")  # the quick computer players: a short match in milliseconds


def test_a_series_of_anchor_matches_goes_on_where_it_stopped() -> None:
    whole = list(anchor_matches("neuf", 3, players=CHEAP))
    tail = list(anchor_matches("neuf", 1, players=CHEAP, start=2))
    assert [m.number for m in whole] == [0, 1, 2] and tail[0].number == 2
    assert tail[0].record == whole[2].record and tail[0].participants == whole[2].participants


def test_only_the_anchor_matches_a_game_lacks_are_played(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'nines.db'}")
    store.migrate()
    standing = Standing(store)
    assert anchor_game(standing, "rummy", 3, CHEAP) == 3
    assert anchor_game(standing, "rummy", 3, CHEAP) == 0  # it has them
    assert anchor_game(standing, "rummy", 5, CHEAP) == 2
    assert standing.anchor_count("rummy") == 5 and standing.anchor_count("neuf") == 0
    assert {c.table_id for c in standing.table_changes(anchor_table_id("rummy", 4))} == {anchor_table_id("rummy", 4)}
    board = {name: (skill.matches, computer) for name, skill, computer in standing.board("rummy")}
    assert board == {"random": (5, True), "basic": (5, True)}
    # a match stored already (another process anchoring at the same moment) is not stored twice
    before = standing.skills("rummy", ["basic", "random"])
    assert not standing.record_ratings("rummy", anchor_table_id("rummy", 4), before, before, computers={"basic", "random"})
    store.close()


def test_a_computer_player_added_since_asks_for_more(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'nines.db'}")
    store.migrate()
    standing = Standing(store)
    assert anchor_goals(standing, 2, CHEAP) == {"neuf": 2, "elyigit": 2, "rummy": 2}
    for game in ("neuf", "elyigit", "rummy"):
        anchor_game(standing, game, 2, CHEAP)
    assert anchor_goals(standing, 2, CHEAP) == {}
    assert anchor_goals(standing, 2, (*CHEAP, "ismcts")) == {"neuf": 4, "elyigit": 4, "rummy": 4}
    assert anchor_game(standing, "rummy", 4, (*CHEAP, "ismcts")) == 2
    assert "ismcts" in {name for name, _skill, computer in standing.board("rummy") if computer}
    store.close()


def test_the_server_anchors_the_games_that_lack_anchor_matches_once(make_client: Callable[..., TestClient]) -> None:
    with make_client(anchor_matches=2, anchor_players=CHEAP) as client:
        anchoring = client.app.state.anchoring  # type: ignore[attr-defined]
        assert anchoring.lacking == {"neuf": 2, "elyigit": 2, "rummy": 2}
        wait_until(lambda: not anchoring.summary()["running"], timeout=120, what="the anchor matches", every=0.2)
        assert anchoring.process.exitcode == 0
        standing = client.app.state.standing  # type: ignore[attr-defined]
        assert {game: standing.anchor_count(game) for game in ("neuf", "elyigit", "rummy")} == {"neuf": 2, "elyigit": 2, "rummy": 2}
        rows = client.get("/api/ratings/neuf").json()
        assert {r["name"] for r in rows if r["computer"]} == {"random", "basic"}
        assert client.get("/health").json()["anchoring"] == {"target": 2, "lacking": {"neuf": 2, "elyigit": 2, "rummy": 2},
                                                             "running": False}
    with make_client(anchor_matches=2, anchor_players=CHEAP) as client:  # started again: nothing lacks
        assert client.app.state.anchoring.lacking == {} and client.app.state.anchoring.process is None  # type: ignore[attr-defined]


def test_an_app_anchors_nothing_unless_asked(client: TestClient) -> None:
    assert client.app.state.anchoring.process is None  # type: ignore[attr-defined]
    assert client.get("/health").json()["anchoring"] == {"target": 0, "lacking": {}, "running": False}


def test_the_anchoring_process_stops_with_the_app(make_client: Callable[..., TestClient]) -> None:
    with make_client(anchor_matches=500) as client:  # the strong players too: it would play for many minutes
        process = client.app.state.anchoring.process  # type: ignore[attr-defined]
        assert process is not None
        wait_until(lambda: os.getpriority(os.PRIO_PROCESS, process.pid) == ANCHOR_NICENESS, timeout=60,
                   what="the anchoring process at the lowest priority")
        assert process.is_alive()
    assert not process.is_alive()
