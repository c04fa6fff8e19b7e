"""One WebSocket at a table as the server writes to it: a queue of messages written in order by its pump,
or at once by the task that answers the socket's own request, straight to uvicorn's connection when it can
(:mod:`.frames`); a reader that stops reading is dropped."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from fastapi import WebSocket
from pydantic import BaseModel

from ..logs import log
from .frames import direct_writer, text_frame


class SocketConnection:
    """One WebSocket at a table; messages are queued and written in order by :meth:`pump`, or at once by
    :meth:`flush` in the task of the socket's own request (people first: see :func:`~nines.server.http.sockets._answer`)."""

    def __init__(self, websocket: WebSocket, seat: str | None, max_queued_bytes: int = 2 * 1024 * 1024,
                 stall_s: float = 30.0) -> None:
        self.websocket = websocket
        self.seat = seat
        self.max_queued_bytes = max_queued_bytes
        self.stall_s = stall_s  # how long a message may wait for the reader to take what was written before it
        self.queued_bytes = 0
        self._closed = False
        self._queue: deque[str] = deque()
        self._wake = asyncio.Event()  # something to write, or the socket closed
        self._writing = False  # a task is writing the queue now (the pump, or a flush)
        # on uvicorn: a message written at once as a frame built once for every socket (frames.py), when nothing
        # waits before it and the connection would take it without waiting
        self._direct = direct_writer(websocket.scope) if isinstance(getattr(websocket, "scope", None), dict) else None

    def send(self, message: BaseModel) -> None:
        self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        if self._closed:
            return
        if self._direct is not None and not self._queue and not self._writing and self._direct.write(text_frame(text)):
            return  # written: in order, since nothing of this socket's waited before it
        if self.queued_bytes + len(text) > self.max_queued_bytes:
            # a reader that stopped reading: drop it (by bytes held, not messages) and let it reconnect
            log.info("socket.slow_reader_dropped", seat=self.seat or "spectator", queued_bytes=self.queued_bytes)
            self.drop()
            return
        self.queued_bytes += len(text)
        self._queue.append(text)
        self._wake.set()

    def close(self) -> None:
        """Write what is queued, then close the socket (the pump does both)."""
        if not self._closed:
            self._closed = True
            self._wake.set()

    def drop(self) -> None:
        """A reader that stopped reading: on uvicorn, its connection is closed at once with what it holds.
        (Only closed, the connection waited for its reader to take every byte written before: a client that
        never reads kept its buffers, its queue, the socket's tasks and its seat shown present for ever, and
        the server could not stop.)"""
        self.close()
        if self._direct is not None:
            self._queue.clear()
            self.queued_bytes = 0
            self._direct.abort()

    async def pump(self) -> None:
        unread_before = False
        while True:
            try:
                async with asyncio.timeout(self.stall_s if self._direct is not None else None):
                    await self._wake.wait()
            except TimeoutError:
                # uvicorn's keepalive closes a connection whose reader stopped answering by a close that waits for
                # the reader to take every byte written first: one that never reads was kept for ever, its seat
                # shown present, and the server could not stop.  Still so at the next look: let it go
                assert self._direct is not None
                unread = self._direct.closed_unread() > 0
                if unread and unread_before:
                    log.info("socket.closed_unread_dropped", seat=self.seat or "spectator")
                    self.drop()
                unread_before = unread
                continue
            self._wake.clear()
            await self.flush()
            if self._closed and not self._writing and not self._queue:
                with contextlib.suppress(Exception):
                    await self.websocket.close()
                return

    async def reply(self, message: BaseModel) -> None:
        """Queue ``message`` and write what is queued at once (the answer to this socket's own request)."""
        self.send(message)
        with contextlib.suppress(Exception):  # a socket that closed meanwhile: its own task ends it
            await self.flush()

    async def flush(self) -> None:
        """Write what is queued now, in the caller's task.  Handed to the pump, it would be written only
        after every other task ready to run (under load, the other tables' computer players)."""
        if self._writing:
            return  # the task writing now writes these too, in order
        self._writing = True
        try:
            while self._queue:
                text = self._queue.popleft()
                self.queued_bytes -= len(text)
                direct = self._direct
                if direct is not None:
                    if direct.write(text_frame(text)):
                        continue
                    # the connection's buffers are full (or it closes): wait for its reader, but not for ever
                    if not await direct.writable(self.stall_s):
                        log.info("socket.slow_reader_dropped", seat=self.seat or "spectator", stalled_s=self.stall_s)
                        self.drop()
                        return
                    if direct.write(text_frame(text)):
                        continue
                await self.websocket.send_text(text)
        finally:
            self._writing = False
            if self._closed:
                self._wake.set()  # the pump closes the socket once nothing is left to write
