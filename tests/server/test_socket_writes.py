"""A socket's messages: written in order by its pump, or at once by the task that answers its request
(people first: the acknowledgement of a person's move is not queued behind other tables' work)."""

from __future__ import annotations

import asyncio
from typing import cast

from fastapi import WebSocket

from nines.server.app import SocketConnection


class FakeSocket:
    """A WebSocket that records what is written, and can hold a write until the test lets it go."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.closed = False
        self.hold: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
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
        await asyncio.sleep(0.01)  # the pump is writing "one" (held)
        conn.send_text("two")
        await conn.flush()  # the pump is writing: it writes "two" after "one", not this task before it
        assert socket.written == []
        conn.send_text("three")
        conn.close()
        conn.send_text("after close")  # refused: the socket is closing
        socket.hold.set()
        await asyncio.wait_for(pump, 5)
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
        await asyncio.sleep(0.01)
        assert conn._closed  # what the drop does to the connection
        socket.hold.set()
        await asyncio.wait_for(pump, 5)
        assert socket.closed

    asyncio.run(main())
