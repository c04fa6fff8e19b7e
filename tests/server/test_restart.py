"""Every accepted move is stored before it is acknowledged; a restarted server rebuilds its tables from the log."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from starlette.testclient import TestClient

from .helpers import Socket, create_table, me_and_bots, pick, state_of

pytestmark = pytest.mark.databases


def test_a_restart_in_the_middle_of_a_deal_resumes_it(make_client: Callable[..., TestClient]) -> None:
    with make_client() as first:
        seated = create_table(first, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Ann", seed=4)
        table_id, token = seated["table"]["id"], seated["token"]
        with Socket(first, table_id, "S", token) as sock:
            for _ in range(5):  # the exchange, then a few cards
                state = sock.my_turn()
                sock.send({"type": "act", "seq": state["seq"], "action": pick(state)})
                sock.receive_until(lambda m: m["type"] == "ack")
            before = sock.my_turn()
        assert before["view"]["phase"] == "play" and before["view"]["tricks_played"]
    # the first server has stopped; a new one on the same database takes over
    with make_client() as second:
        assert second.get("/health").json()["tables"] >= 1
        after = state_of(second, table_id, "S", token)
        assert after["seq"] == before["seq"]
        assert after["view"] == before["view"]
        assert after["last"] == before["last"]
        # and the deal goes on to its end
        with Socket(second, table_id, "S", token) as sock:
            while True:
                state = sock.my_turn()
                if state["view"]["previous_deal"] is not None:
                    break
                sock.send({"type": "act", "seq": state["seq"], "action": pick(state)})
        assert state["view"]["previous_deal"]["number"] == 1
        assert state["view"]["deal_number"] == 2


def test_computer_players_pick_up_where_they_stopped(make_client: Callable[..., TestClient]) -> None:
    # dealer N: E, a computer player, bids first, but slowly; the server stops before it moves
    options = {"first_dealer": "N"}
    with make_client() as first:
        seated = create_table(first, "elyigit", me_and_bots(["N", "E", "S", "W"], "N"), seed=9, bot_delay_ms=5000, options=options)
        table_id, token = seated["table"]["id"], seated["token"]
        assert state_of(first, table_id)["seq"] == 0
    with make_client() as second:
        with Socket(second, table_id, "N", token) as sock:
            state = sock.next_state()
            assert state["seq"] == 0 and state["view"]["to_act"] == "E"
            # the person at the table speeds the computer players up; the restarted server drives them
            sock.send({"type": "pace", "seq": 0, "delay_ms": 0})
            mine = sock.my_turn()
        assert mine["seq"] == 3 and [seat for seat, _ in mine["view"]["auction"]] == ["E", "S", "W"]


def test_acknowledged_moves_are_in_the_database(make_client: Callable[..., TestClient], database_url: str) -> None:
    from nines.server.store.database import Store

    with make_client() as client:
        seated = create_table(client, "rummy", me_and_bots(["1", "2"], "1"), options={"players": 2}, seed=2)
        table_id, token = seated["table"]["id"], seated["token"]
        with Socket(client, table_id, "1", token) as sock:
            acked = []
            for _ in range(4):
                state = sock.my_turn()
                action = pick(state)
                sock.send({"type": "act", "seq": state["seq"], "action": action})
                ack = sock.receive_until(lambda m: m["type"] == "ack")
                # at the moment of the acknowledgement the move is already stored
                stored = Store(database_url).load_table(table_id)
                assert stored is not None and stored.actions[ack["seq"] - 1].action == action
                acked.append(ack["seq"])
    assert acked == sorted(acked)
