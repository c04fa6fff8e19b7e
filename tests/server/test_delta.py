"""After each move a socket receives what changed, not the whole match: the patches are exact, stay
small however long the match, and a client that missed one asks for the whole state again."""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from nines.randomness import MatchSecret
from nines.server.wire import delta
from nines.server.wire.messages import TableInfo

from .helpers import Socket, create_table, me_and_bots, pick

# no booleans among the numbers: a view's field keeps its type, and Python's 0 == False lets the diff pass
# over a swap of the two (see nines.server.wire.delta)
JSON = st.recursive(
    st.none() | st.integers(-5, 5) | st.sampled_from(["9H", "TS", "play", ""]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["a", "b", "view", "log"]), inner, max_size=4),
    max_leaves=25,
)


@given(JSON, JSON)
def test_applying_the_changes_gives_the_new_value_and_leaves_the_old_one(old: Any, new: Any) -> None:
    before = json.dumps(old)
    changes = delta.diff(old, new)
    # as sent over the socket; the keys in the same order too (seats are shown in order)
    assert json.dumps(delta.apply(old, json.loads(json.dumps(changes)))) == json.dumps(new)
    assert json.dumps(old) == before


def test_a_history_that_grows_is_sent_as_what_was_added() -> None:
    old = {"tricks": [["9H", "TS", "AC"]] * 40, "to_act": "S", "scores": {"S": 9}}
    new = {"tricks": [*old["tricks"], ["2C", "3C", "4C"]], "to_act": "W", "scores": {"S": 8}}
    assert delta.diff(old, new) == [["a", ["tricks"], [["2C", "3C", "4C"]]], ["s", ["to_act"], "W"], ["s", ["scores", "S"], 8]]


def test_patches_stay_small_as_a_match_grows_and_rebuild_the_exact_state(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # one fixed secret, so that the match is one known to last 150 patches (a fresh secret each run made
    # some matches end after two deals, too few moves to compare the start with the end)
    monkeypatch.setattr(MatchSecret, "new", classmethod(lambda cls: cls(bytes([1] * 32))))
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Ann")
    table_id, token = seated["table"]["id"], seated["token"]
    with Socket(client, table_id, "S", token) as sock, Socket(client, table_id) as watcher:
        sock.receive_until(lambda m: m["type"] == "state")
        assert json.loads(sock.raw)["type"] == "state"  # the whole state when a socket opens
        while len(sock.patch_sizes) < 150:
            state = sock.my_turn()
            if state["table"]["status"] == "over":
                break
            sock.send({"type": "act", "seq": state["seq"], "action": pick(state)})
        built = sock.my_turn()  # nobody else moves now: the table waits for S
        # what the patches built is exactly what the server sends whole
        sock.send({"type": "resync"})
        whole = sock.receive_until(lambda m: m["type"] == "state")
        assert json.loads(sock.raw)["type"] == "state"
        assert {k: v for k, v in whole.items() if k != "rev"} == {k: v for k, v in built.items() if k != "rev"}
        assert whole["view"] == client.get(f"/api/tables/{table_id}/state",
                                            headers={"X-Nines-Seat": "S", "X-Nines-Token": token}).json()["view"]
        seen = watcher.receive_until(lambda m: m["type"] == "state" and m["seq"] == whole["seq"])
        assert seen["view"] == client.get(f"/api/tables/{table_id}/state").json()["view"]
    sizes = sock.patch_sizes
    assert len(sizes) >= 100, "too few patches to compare the start and the end of the match"
    early, late = statistics.median(sizes[:20]), statistics.median(sizes[-20:])
    assert late < 1.5 * early + 200, f"patches grew with the match: median {early} bytes early, {late} late"
    # a move inside a deal changes little; the end of a deal (a new hand, the last deal shown, or the match
    # over) changes most of the view, so its patch may be near the state's size. The match's random deal
    # decides where those fall among the patches, and whether the match ends before 150 of them.
    within = [size for size, ended in zip(sizes, sock.patch_ended_deal, strict=True) if not ended]
    assert len(within) >= 90
    assert max(within[-20:]) < len(json.dumps(whole)) / 2, "a move's patch is not much smaller than the whole state"


GAMES = [
    ("neuf", ["S", "W", "E"], "S", {}),
    ("elyigit", ["N", "E", "S", "W"], "N", {}),
    ("rummy", ["1", "2", "3"], "2", {"options": {"players": 3}}),
]


@pytest.mark.parametrize(("game", "seats", "me", "extra"), GAMES, ids=[g[0] for g in GAMES])
def test_the_body_built_for_sockets_is_the_documented_state_message(
    client: TestClient, game: str, seats: list[str], me: str, extra: dict[str, Any]
) -> None:
    # sockets get bodies built without the pydantic model (it was the largest cost of a move); each must be
    # the model's own dump, key for key and in the same order, for every seat and for spectators
    seated = create_table(client, game, me_and_bots(seats, me), name="Ann", **extra)
    table_id, token = seated["table"]["id"], seated["token"]
    table = client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
    compared = 0
    with Socket(client, table_id, me, token) as sock:
        for _ in range(12):
            state = sock.my_turn()
            assert table.deal_number() == table.view(None).deal_number  # read from the state, not a view
            body = table.info_body()  # the table's part of every body, built without the model too
            assert json.dumps(body) == json.dumps(TableInfo.model_validate(body).model_dump(mode="json"))
            for seat in [*seats, None]:
                info = table.info()
                fast = table.state_body(seat, info.model_dump(mode="json"))
                assert json.dumps(fast) == json.dumps(table.state_for(seat, info).model_dump(mode="json"))
                compared += 1
            if state["table"]["status"] == "over":
                break
            before = table.view(me)
            sock.send({"type": "act", "seq": state["seq"], "action": pick(state)})
            sock.receive_until(lambda m: m["type"] in ("ack", "error"))
            assert table.view(me) is not before, "a view cached at one move was served after the next"
    assert compared >= 12 * (len(seats) + 1) or table.state.is_over
