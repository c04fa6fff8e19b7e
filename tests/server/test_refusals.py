"""The server is authoritative: malformed, stale, repeated, out-of-turn, illegal and foreign messages are refused
with a typed error, and the table is exactly as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from .helpers import Socket, create_table, me_and_bots, state_of


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    """A Le Neuf table: Ann in S, Bea in W (both people), a computer player in E, at S's first card."""
    seated = create_table(client, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}},
                          options={"first_dealer": "E"})
    table_id = seated["table"]["id"]
    friend = client.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"], "name": "Bea"}).json()
    tokens = {"S": seated["token"], "W": friend["token"]}
    # dealer E: the exchange goes S, W, E and S leads; both people keep their hands
    with Socket(client, table_id, "S", tokens["S"]) as s, Socket(client, table_id, "W", tokens["W"]) as w:
        s.send({"type": "act", "seq": s.my_turn()["seq"], "action": "keep"})
        s.receive_until(lambda m: m["type"] == "ack")
        w.send({"type": "act", "seq": w.my_turn()["seq"], "action": "keep"})
        w.receive_until(lambda m: m["type"] == "ack")
    state = _wait_until_s_plays(client, table_id, tokens["S"])
    return {"id": table_id, "tokens": tokens, "state": state}


def _wait_until_s_plays(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    from .helpers import wait_for

    return wait_for(client, table_id, lambda s: s["view"]["phase"] == "play" and bool(s["view"]["legal"]), "S", token)


def unchanged(client: TestClient, table: dict[str, Any]) -> None:
    now = state_of(client, table["id"], "S", table["tokens"]["S"])
    assert now["seq"] == table["state"]["seq"]
    assert now["view"] == table["state"]["view"]


def refused(sock: Socket) -> dict[str, Any]:
    message = sock.receive_until(lambda m: m["type"] in ("error", "ack"))
    assert message["type"] == "error", message
    return message


def test_malformed_messages_are_refused(client: TestClient, table: dict[str, Any]) -> None:
    seq = table["state"]["seq"]
    bad = [
        "this is not json",
        json.dumps([1, 2, 3]),
        json.dumps({"type": "dance"}),
        json.dumps({"type": "act", "action": "play 2C"}),  # no seq
        json.dumps({"type": "act", "seq": "soon", "action": "play 2C"}),
        json.dumps({"type": "act", "seq": seq, "action": ""}),
        json.dumps({"type": "act", "seq": seq, "action": "play 2C", "extra": True}),
        json.dumps({"type": "pace", "seq": seq, "delay_ms": -5}),
        # numbers are numbers: a bool or a numeric string was once taken as a seq (true == 1)
        json.dumps({"type": "act", "seq": True, "action": "play 2C"}),
        json.dumps({"type": "act", "seq": str(seq), "action": "play 2C"}),
        json.dumps({"type": "pace", "seq": seq, "delay_ms": "100"}),
        json.dumps({"type": "hint", "seq": float(seq)}),
    ]
    with Socket(client, table["id"], "S", table["tokens"]["S"]) as sock:
        sock.next_state()
        for text in bad:
            sock.send(text)
            assert refused(sock)["code"] == "malformed", text
        sock.ws.send_bytes(b"\x00\x01")
        assert refused(sock)["code"] == "malformed"
        # a move that is not a move of the game is malformed for the rules: illegal
        sock.send({"type": "act", "seq": seq, "action": "fold"})
        assert refused(sock)["code"] == "illegal"
    unchanged(client, table)


def test_illegal_moves_are_refused_with_the_rules_reason(client: TestClient, table: dict[str, Any]) -> None:
    view = table["state"]["view"]
    legal = {a.split()[1] for a in view["legal"]}
    not_mine = next(c for c in ("AS", "KH", "2C", "7D", "TS", "QC") if c not in view["hand"])
    with Socket(client, table["id"], "S", table["tokens"]["S"]) as sock:
        sock.next_state()
        keys = {}
        for action in (f"play {not_mine}", "exchange", "bid 7", "play 11X"):
            sock.send({"type": "act", "seq": table["state"]["seq"], "action": action})
            error = refused(sock)
            assert error["code"] == "illegal", action
            assert error["message"]
            keys[action] = (error["key"], error["params"])
        assert legal  # S has a card to play
        # the rule's key and its parameters, for a page to say it in the player's language
        assert keys[f"play {not_mine}"] == ("play.not_in_hand", {"card": not_mine, "seat": "S", "cards": sorted(legal, key=view["hand"].index)})
        assert keys["play 11X"][0] == "syntax.card"
    unchanged(client, table)


@pytest.mark.databases
def test_stale_and_repeated_messages_are_refused(client: TestClient, table: dict[str, Any]) -> None:
    seq = table["state"]["seq"]
    action = table["state"]["view"]["legal"][0]
    with Socket(client, table["id"], "S", table["tokens"]["S"]) as sock:
        sock.next_state()
        for old in (seq - 1, seq + 1, 0):
            sock.send({"type": "act", "seq": old, "action": action})
            assert refused(sock)["code"] == "stale"
        unchanged(client, table)
        sock.send({"type": "act", "seq": seq, "action": action})
        assert sock.receive_until(lambda m: m["type"] == "ack")["seq"] == seq + 1
        # the same message again (a double click, a resend after a reconnection) does nothing
        sock.send({"type": "act", "seq": seq, "action": action})
        assert refused(sock)["code"] == "stale"
    after = state_of(client, table["id"])
    assert after["seq"] == seq + 1


def test_out_of_turn_moves_are_refused(client: TestClient, table: dict[str, Any]) -> None:
    seq = table["state"]["seq"]
    w_view = state_of(client, table["id"], "W", table["tokens"]["W"])["view"]
    with Socket(client, table["id"], "W", table["tokens"]["W"]) as sock:
        sock.next_state()
        sock.send({"type": "act", "seq": seq, "action": f"play {w_view['hand'][0]}"})
        error = refused(sock)
        assert error["code"] == "out_of_turn" and "S" in error["message"]
        assert error["key"] == "turn.not_yours" and error["params"] == {"by_seat": "W", "seat": "S"}
        sock.send({"type": "hint", "seq": seq})
        assert refused(sock)["code"] == "out_of_turn"
    unchanged(client, table)


def test_a_seat_needs_its_own_token(client: TestClient, table: dict[str, Any]) -> None:
    table_id, tokens = table["id"], table["tokens"]
    action = table["state"]["view"]["legal"][0]
    # W's token does not open S's seat, on the socket or over HTTP
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": "S", "token": tokens["W"]}))
        error = json.loads(ws.receive_text())
        assert error["type"] == "error" and error["code"] == "forbidden"
    for seat, token in (("S", tokens["W"]), ("S", "x" * 32), ("E", tokens["S"])):
        response = client.post(f"/api/tables/{table_id}/actions", json={"seat": seat, "token": token, "seq": table["state"]["seq"], "action": action})
        assert response.status_code == 403 and response.json()["code"] == "forbidden"
        assert client.get(f"/api/tables/{table_id}/state", headers={"X-Nines-Seat": seat, "X-Nines-Token": token}).status_code == 403
    # a spectator may watch but not act, ask for hints or set the pace
    with Socket(client, table_id) as sock:
        assert sock.next_state()["you"] is None
        for message in ({"type": "act", "seq": table["state"]["seq"], "action": action},
                        {"type": "hint", "seq": table["state"]["seq"]},
                        {"type": "pace", "seq": table["state"]["seq"], "delay_ms": 0}):
            sock.send(message)
            assert refused(sock)["code"] == "forbidden"
    # a socket that does not say hello first is closed
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "act", "seq": 0, "action": action}))
        assert json.loads(ws.receive_text())["code"] == "malformed"
    unchanged(client, table)


def test_the_same_move_over_http_is_checked_the_same_way(client: TestClient, table: dict[str, Any]) -> None:
    table_id, token = table["id"], table["tokens"]["S"]
    seq = table["state"]["seq"]
    action = table["state"]["view"]["legal"][0]
    def post(body):
        return client.post(f"/api/tables/{table_id}/actions", json={"seat": "S", "token": token, **body})
    assert post({"seq": seq, "action": "play ZZ"}).json()["code"] == "illegal"
    assert post({"seq": seq - 1, "action": action}).status_code == 409
    assert post({"seq": seq}).status_code == 422
    unchanged(client, table)
    ok = post({"seq": seq, "action": action})
    assert ok.status_code == 200 and ok.json() == {"type": "ack", "seq": seq + 1, "action": action}


def test_nobody_moves_while_a_seat_is_open(client: TestClient) -> None:
    seated = create_table(client, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}}, options={"first_dealer": "W"})
    table_id = seated["table"]["id"]
    # dealer W: E would decide first, but the table waits for W's player
    with Socket(client, table_id, "S", seated["token"]) as sock:
        state = sock.next_state()
        assert state["table"]["status"] == "waiting" and state["seq"] == 0
        sock.send({"type": "act", "seq": 0, "action": "keep"})
        assert refused(sock)["code"] in ("waiting", "out_of_turn")
    assert state_of(client, table_id)["seq"] == 0
    assert me_and_bots  # the helper is shared with the other tests


def test_table_settings_are_numbers_and_yes_no_not_strings(client: TestClient) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
    for extra in ({"bot_delay_ms": "100"}, {"bot_delay_ms": True}, {"seed": "5"}, {"clock_s": 30.5}, {"hints": "no"}, {"public": 1}):
        refused = client.post("/api/tables", json={"game": "neuf", "seats": seats, **extra})
        assert refused.status_code == 422 and refused.json()["code"] == "malformed", extra
