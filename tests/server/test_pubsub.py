"""Two server processes sharing the database and Redis: a table's events reach the sockets of both."""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

from nines.server.store.database import Store
from nines.server.wire.pubsub import TableEvent, _merge

from .helpers import Socket, create_table, pick, state_of, wait_for

pytestmark = pytest.mark.databases


def test_two_servers_share_a_table_through_redis(make_client: Callable[..., TestClient], redis_url: str, database_url: str) -> None:
    with make_client(redis_url=redis_url, instance="a") as a, make_client(redis_url=redis_url, instance="b") as b:
        assert a.get("/health").json()["pubsub"] == "redis"
        seated = create_table(a, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}})
        table_id = seated["table"]["id"]
        with Socket(a, table_id, "S", seated["token"]) as ann:
            assert ann.next_state()["table"]["status"] == "waiting"
            # the friend takes the seat on the other server: the first one hears of it
            friend = b.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"], "name": "Bea"}).json()
            ann.receive_until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
            reads = _count_reads(a, b)
            with Socket(b, table_id, "W", friend["token"]) as bea, Socket(b, table_id) as watcher:
                moved_at = -1
                people_moves = 0
                while people_moves < 12:
                    # Ann's socket (server a) sees every move; the computer player's are skipped
                    state = _latest(ann, lambda m, after=moved_at: m["seq"] > after and m["view"]["to_act"] in ("S", "W"))
                    mover = ann if state["view"]["to_act"] == "S" else bea
                    if mover is bea:
                        # Bea is on server b: her socket gets the same position through Redis
                        seq = state["seq"]
                        state = _latest(bea, lambda m, seq=seq: m["seq"] == seq)
                    mover.send({"type": "act", "seq": state["seq"], "action": pick(state)})
                    assert mover.receive_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                    moved_at = state["seq"]
                    people_moves += 1
                final = moved_at + 1
                seen = watcher.receive_until(lambda m: m["type"] == "state" and m["seq"] >= final)
                assert seen["you"] is None and seen["view"]["hand"] == []
                # each move reaches the other server with the move itself: it is applied without a read of the
                # store (the reads left are a computer player's move lost to the other server's claim, and sockets
                # opening). Each server read every move of the other once, before: about 2 reads a move in all.
                assert sum(reads) < 1.2 * final, f"the servers read the store {reads} times for {final} moves"
        # both servers hold the same match, and the database one log: no move was taken twice
        settled = wait_for(a, table_id, lambda s: s["seq"] == state_of(b, table_id)["seq"] and (s["view"]["to_act"] != "E"))
        assert settled["view"] == state_of(b, table_id)["view"]
        stored = Store(database_url).load_table(table_id)
        assert stored is not None
        assert [x.seq for x in stored.actions] == list(range(1, len(stored.actions) + 1))
        assert [x.action for x in stored.actions] == [str(act) for _, act in a.app.state.manager.tables[table_id].state.log]
        assert a.app.state.manager.tables[table_id].state.log == b.app.state.manager.tables[table_id].state.log


def _count_reads(*clients: TestClient) -> list[int]:
    """Count each server's reads of a table's moves from the store (one count per server, kept up to date)."""
    counts = [0] * len(clients)
    for n, client in enumerate(clients):
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        read = store.actions_after

        def counted(*args: object, n: int = n, read: Callable[..., object] = read) -> object:
            counts[n] += 1
            return read(*args)

        store.actions_after = counted
    return counts


def _latest(sock: Socket, wanted: Callable[[dict], bool]) -> dict:
    """The socket's last state if it is the one wanted, else the next state that is."""
    if sock.state is not None and wanted(sock.state):
        return sock.state
    return sock.receive_until(lambda m: m["type"] == "state" and wanted(m))


def test_events_not_yet_sent_keep_every_move_when_they_merge() -> None:
    # a process that publishes faster than Redis takes the events merges those of one table; the moves of
    # merged action events stay in the event, so that the other process follows them without the store
    one = TableEvent("a", "t", 5, "action", [["S", "S", "play 9H", False]])
    two = TableEvent("a", "t", 6, "action", [["W", "W", "play TH", False]])
    merged = _merge(_merge(None, one), two)
    assert merged.seq == 6 and merged.moves == [["S", "S", "play 9H", False], ["W", "W", "play TH", False]]
    assert _merge(one, TableEvent("a", "t", 8, "action", [["E", "E", "play 2C", False]])).moves == [["E", "E", "play 2C", False]]
    assert _merge(one, TableEvent("a", "t", 5, "seats")).kind == "seats"


def test_a_seat_moved_to_another_device_leaves_the_old_socket_on_the_other_process_too(
    make_client: Callable[..., TestClient], redis_url: str
) -> None:
    # attack: a seat's socket open on one process keeps the seat after the person moved the seat to another
    # browser on the other process; it went on seeing the hand and could play for the seat
    with make_client(redis_url=redis_url, instance="a") as a, make_client(redis_url=redis_url, instance="b") as b:
        seated = create_table(a, "neuf", {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"},
                                          "E": {"kind": "bot", "bot": "basic"}}, bot_delay_ms=5000)
        table_id = seated["table"]["id"]
        with Socket(b, table_id, "S", seated["token"]) as old:
            assert old.next_state()["you"] == "S"
            # the seat's one-time link is spent by another browser, on process a
            claim = parse_qs(urlsplit(seated["url"]).query)["claim"][0]
            assert a.post(f"/api/tables/{table_id}/claim", json={"claim": claim}).status_code == 200
            moved = a.app.state.manager.tables[table_id].seats["S"].token_hash  # type: ignore[attr-defined]
            deadline = time.monotonic() + 30
            while b.app.state.manager.tables[table_id].seats["S"].token_hash != moved:  # type: ignore[attr-defined]
                assert time.monotonic() < deadline, "process b never heard that the seat moved"
                time.sleep(0.02)
            old.send({"type": "resync"})
            state = old.receive_until(lambda m: m["type"] == "state")
            assert state["you"] is None and state["view"]["hand"] == [], "the old socket still holds the seat"
            old.send({"type": "act", "seq": state["seq"], "action": "keep"})
            refused = old.receive_until(lambda m: m["type"] in ("ack", "error"))
            assert refused["type"] == "error" and refused["code"] == "forbidden"


def test_a_process_that_follows_a_deal_to_its_end_reads_no_move_and_writes_no_statistics(
    make_client: Callable[..., TestClient], redis_url: str
) -> None:
    # the process that makes the move ending a deal writes its statistics before it publishes the move; the one
    # following it wrote them again (the whole match's record built and a transaction, per deal).  And a person's
    # move is published after its acknowledgement: a computer player's move after it was often made and published
    # first, its event carrying only itself, and the following process read the store for the person's move
    with make_client(redis_url=redis_url, instance="a") as a, make_client(redis_url=redis_url, instance="b") as b:
        seated = create_table(a, "neuf", {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"},
                                          "E": {"kind": "bot", "bot": "basic"}}, name="Ann")
        table_id = seated["table"]["id"]
        writes = _count_writes(a, b)
        with Socket(a, table_id, "S", seated["token"]) as ann:
            state = ann.my_turn()
            ann.send({"type": "act", "seq": state["seq"], "action": pick(state)})
            _owned(a, table_id)  # a, where the moves are made, owns the table (a process that watches never takes it)
            watcher = Socket(b, table_id)
            watcher.next_state()
            reads = _count_reads(b)
            while True:
                state = ann.my_turn()
                if state["view"]["deal_number"] >= 2 or state["table"]["status"] == "over":
                    break
                ann.send({"type": "act", "seq": state["seq"], "action": pick(state)})
            ended = state["seq"]
            # b has followed the move that ended the deal (and counted it) once its spectator saw it
            watcher.receive_until(lambda m: m["type"] == "state" and m["seq"] >= ended)
            watcher.close()
        owners = [c.app.state.manager.tables[table_id].owner.here for c in (a, b)]  # type: ignore[attr-defined]
        assert owners == [True, False]
        assert reads == [0], f"b read the store {reads[0]} times following {ended} moves"
        assert writes == [1, 0], f"the deal's statistics were written {writes} times (a, b)"
        assert a.get("/api/people/Ann/stats").json()["games"]["neuf"]["deals"] == 1

def _owned(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 30
    while not client.app.state.manager.tables[table_id].owner.here:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the table never had its owner"
        time.sleep(0.02)


def _count_writes(*clients: TestClient) -> list[int]:
    """Count each server's writes of deals' statistics (kept up to date)."""
    counts = [0] * len(clients)
    for n, client in enumerate(clients):
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        write = store.add_deal_stats

        def counted(stats: object, n: int = n, write: Callable[..., int] = write) -> int:
            counts[n] += 1
            return write(stats)

        store.add_deal_stats = counted
    return counts
