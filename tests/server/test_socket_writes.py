"""A socket's messages: written in order by its pump, or at once by the task that answers its request
(people first: the acknowledgement of a person's move is not queued behind other tables' work)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import httpx
import pytest
from fastapi import WebSocket

from nines.server.wire import frames as wire
from nines.server.wire.sockets import SocketConnection

from ..services import ServerProcess
from ..waiting import until
from .test_outages import Client


class FakeSocket:
    """A WebSocket that records what is written, and can hold a write until the test lets it go."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.closed = False
        self.hold: asyncio.Event | None = None
        self.writing: list[str] = []  # writes begun (a held one among them): the test waits for these

    async def send_text(self, text: str) -> None:
        self.writing.append(text)
        if self.hold is not None:
            await self.hold.wait()
        self.written.append(text)

    async def close(self) -> None:
        self.closed = True


def _connection(socket: FakeSocket) -> SocketConnection:
    return SocketConnection(cast(WebSocket, socket), "S")


def test_a_flush_writes_what_is_queued_in_the_callers_own_task() -> None:
    async def main() -> FakeSocket:
        socket = FakeSocket()
        conn = _connection(socket)
        busy = [asyncio.create_task(asyncio.sleep(0)) for _ in range(50)]  # other tasks ready to run
        conn.send_text("patch")
        conn.send_text("ack")
        await conn.flush()  # no pump at all: written here, before any of the tasks ready
        assert socket.written == ["patch", "ack"]
        assert not any(task.done() for task in busy)
        await asyncio.gather(*busy)
        assert conn.queued_bytes == 0
        return socket

    asyncio.run(main())


def test_a_flush_while_the_pump_writes_keeps_the_order_and_close_writes_everything_first() -> None:
    async def main() -> FakeSocket:
        socket = FakeSocket()
        socket.hold = asyncio.Event()
        conn = _connection(socket)
        pump = asyncio.create_task(conn.pump())
        conn.send_text("one")
        await until(lambda: socket.writing == ["one"], what="the pump writing")  # the pump is writing "one" (held)
        conn.send_text("two")
        await conn.flush()  # the pump is writing: it writes "two" after "one", not this task before it
        assert socket.written == []
        conn.send_text("three")
        conn.close()
        conn.send_text("after close")  # refused: the socket is closing
        socket.hold.set()
        await asyncio.wait_for(pump, 30)
        assert socket.written == ["one", "two", "three"]
        assert socket.closed
        return socket

    asyncio.run(main())


def test_a_reader_that_stops_reading_is_dropped_by_the_bytes_queued() -> None:
    async def main() -> None:
        socket = FakeSocket()
        socket.hold = asyncio.Event()  # never read
        conn = SocketConnection(cast(WebSocket, socket), None, max_queued_bytes=100)
        pump = asyncio.create_task(conn.pump())
        for _ in range(20):
            conn.send_text("x" * 10)
        # dropped by the send past 100 bytes itself (no wait: a fixed sleep here assumed the pump had run)
        assert conn._closed  # what the drop does to the connection
        socket.hold.set()
        await asyncio.wait_for(pump, 30)
        assert socket.closed

    asyncio.run(main())


def test_on_uvicorn_messages_are_written_straight_to_the_connection_and_every_patch_follows(tmp_path: Path) -> None:
    """``nines serve`` (uvicorn): a socket's messages go straight to its connection as frames built once
    (wire.py), and what a person and three spectators receive is whole: every patch starts from the state
    the socket holds, and after the moves each holds what a fresh socket is sent."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'nines.db'}", folder=tmp_path)
    clients: list[Client] = []
    try:
        seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
        created = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats, "bot_delay_ms": 0},
                             timeout=30).json()
        table_id = created["table"]["id"]
        person = Client(server, table_id, "S", created["token"])
        clients.append(person)
        clients.extend(Client(server, table_id) for _ in range(3))
        for _ in range(12):  # the person's moves; the computer players' in between
            state = person.state_where(lambda m: bool(m["view"].get("legal")))
            reply, _ = person.act(state)
            assert reply["type"] == "ack", reply
        # the person's turn again: the table stands still until they move, and every socket catches up
        seq = person.state_where(lambda m: bool(m["view"].get("legal")))["seq"]
        for client in list(clients):  # each followed every patch to the same state as a fresh socket's
            held = client.state_where(lambda m: m["seq"] == seq)
            fresh = Client(server, table_id, *(("S", created["token"]) if client is person else ()))
            clients.append(fresh)
            drop = ("rev", "table")  # the table's info says when it moved and who is connected
            assert {k: v for k, v in held.items() if k not in drop} == {k: v for k, v in fresh.state.items() if k not in drop}
        assert httpx.get(f"{server.http}/health", timeout=10).json()["sockets"]["direct_frames"] >= 4 * 12
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_a_uvicorn_whose_protocol_lacks_what_the_writer_reads_gets_every_message_the_usual_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn's protocol is not a public interface: a version that renamed what ``DirectWriter`` reads
    gets no direct writer (every message then goes through starlette and uvicorn's ``send``), never an
    ``AttributeError`` at a socket's first message."""

    class Protocol:  # stands for uvicorn's protocol class
        def __init__(self, **attributes: object) -> None:
            self.__dict__.update(attributes)

        async def send(self, message: object) -> None:
            pass

    monkeypatch.setattr(wire, "_SANSIO", Protocol)
    whole = {"transport": None, "handshake_complete": True, "close_sent": False, "disconnected": False,
             "initial_response": None, "writable": asyncio.Event(), "conn": SimpleNamespace(extensions=[])}
    assert isinstance(wire.direct_writer({wire.SEND_KEY: Protocol(**whole).send}), wire.DirectWriter)
    for missing in wire._PROTOCOL_USES:
        lacking = Protocol(**{name: value for name, value in whole.items() if name != missing})
        assert wire.direct_writer({wire.SEND_KEY: lacking.send}) is None, missing
    renamed = Protocol(**{**whole, "conn": SimpleNamespace(negotiated=[])})
    assert wire.direct_writer({wire.SEND_KEY: renamed.send}) is None
    with_extension = Protocol(**{**whole, "conn": SimpleNamespace(extensions=["permessage-deflate"])})
    assert wire.direct_writer({wire.SEND_KEY: with_extension.send}) is None
