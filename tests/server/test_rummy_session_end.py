"""The open rummy session at a web table: any player ends it after the hand in progress."""

from __future__ import annotations

from starlette.testclient import TestClient

from .helpers import Socket, create_table, me_and_bots


def test_a_player_ends_an_open_session_from_the_table_whoever_is_to_play(client: TestClient) -> None:
    seated = create_table(client, "rummy", me_and_bots(["1", "2"], "1"), options={"players": 2}, seed=3, bot_delay_ms=0)
    table_id, token = seated["table"]["id"], seated["token"]
    with Socket(client, table_id, "1", token) as sock:
        state = sock.next_state()
        assert state["view"]["hands_in_session"] is None and state["view"]["session_ending"] is False
        assert "end session" not in state["view"]["legal"]  # not a move of the game
        sock.send({"type": "act", "seq": state["seq"], "action": "end session"})
        ack = sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["action"] == "end session", ack
        def ending_shown(m: dict) -> bool:
            return m["type"] == "state" and m["view"]["session_ending"]

        # the new state may come before the acknowledgement
        ending = sock.state if sock.state is not None and ending_shown(sock.state) else sock.receive_until(ending_shown)
        for _ in range(20):  # a computer player may move meanwhile: resend at the latest move
            sock.send({"type": "act", "seq": sock.state["seq"] if sock.state else ending["seq"], "action": "end session"})
            refused = sock.receive_until(lambda m: m["type"] == "error")
            if "already ends after this hand" in refused["message"]:
                break
        assert "already ends after this hand" in refused["message"], refused
    engine = client.app.state.manager.tables[table_id].state
    assert engine.session_ending and engine.record()["deals"][0]["actions"][ack["seq"] - 1]["action"] == "end-session"
