"""Text frames written straight to a table socket's connection, each frame built once for all its sockets.

Every message a table socket is sent went through the same layers, once per socket: starlette's
``WebSocket.send_text`` and ``send``, the exception handler's ``sender``, uvicorn's ``send`` (a wait on
its ``writable`` event, the text encoded, a ``websockets`` frame built and serialized, the output
joined) and the transport's ``write``, all in the socket's pump task, woken once per message.  Under
``benchmarks/server_load.py`` (300 spectators, a few thousand writes a second) that was a fifth of the
event loop's time, of which the system call itself (about 9 µs of CPU a write here) was the smaller part.

So when the server runs on uvicorn's ``websockets-sansio`` protocol (its default with ``websockets``
installed) a socket's message is written at once, in the caller's task, as the very bytes uvicorn would
have written: a final text frame, unmasked, no extension (``nines serve`` turns per-message compression
off; a connection that negotiated an extension is never written this way).  The frame is built by
``websockets``' own :class:`~websockets.frames.Frame` once per message text and the same bytes go to every
socket showing that view.  Only while the connection is open and uvicorn would write without waiting:
its handshake done, no close sent or received, the transport not closing and not over its high-water
mark (``writable`` set).  Otherwise, or on another server (the tests' client, another ASGI server), the
message takes the usual way, which waits for the transport as before, and a socket that stops reading is
still dropped by the bytes queued for it (``SocketConnection``).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.frames import Frame, Opcode
from websockets.protocol import State

_SANSIO: Any  # the class, or None
try:  # uvicorn's protocol (its default with websockets installed, since 0.35), when this server runs on it
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    _SANSIO = WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older uvicorn: every message goes the usual way
    _SANSIO = None

__all__ = ["SEND_KEY", "DirectWriter", "KeepServerSend", "direct_writer", "stop_reading", "text_frame"]

SEND_KEY = "nines.server_send"
"""Where :class:`KeepServerSend` keeps a WebSocket's own ``send`` from the server, in its scope."""


class KeepServerSend:
    """ASGI middleware (outermost): keeps each WebSocket's ``send`` as the server gave it, before any
    middleware wraps it, in the scope (``SEND_KEY``), so the socket can find its connection."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


@functools.lru_cache(maxsize=4)
def text_frame(text: str) -> bytes:
    """``text`` as one final, unmasked text frame (a server's), built once while it is being sent to its
    sockets (the same string goes to every socket showing one view, one socket after another; its hash is
    kept by the string).  A few are kept: a whole state can be hundreds of kilobytes (a rummy hand full
    of wilds lists thousands of lays)."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class DirectWriter:
    """Writes frames to one uvicorn ``websockets-sansio`` connection's transport while it is open and
    writable; says ``False`` (nothing written) otherwise."""

    __slots__ = ("_protocol",)

    written = 0
    """Frames written this way in this process (``/health`` reports it)."""

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    def write(self, frame: bytes) -> bool:
        protocol = self._protocol
        transport = protocol.transport
        if (not protocol.handshake_complete or protocol.close_sent or protocol.disconnected
                or protocol.initial_response is not None or not protocol.writable.is_set()
                or protocol.conn.state is not State.OPEN or transport is None or transport.is_closing()):
            return False
        transport.write(frame)
        DirectWriter.written += 1
        return True

    async def writable(self, within_s: float) -> bool:
        """Wait until the connection would take a frame without waiting (its reader has taken enough of what
        was written); ``False`` if it still would not after ``within_s`` seconds: a reader that stopped reading."""
        writable = self._protocol.writable
        if writable.is_set():
            return True
        try:
            await asyncio.wait_for(writable.wait(), within_s)
        except TimeoutError:
            return False
        return True

    def closed_unread(self) -> int:
        """Bytes the connection still holds for its reader after it was closed (0: none, or it is open)."""
        transport = self._protocol.transport
        if transport is None or not transport.is_closing():
            return 0
        return int(transport.get_write_buffer_size())

    def abort(self) -> None:
        """Close the connection at once, dropping what its transport still holds for the reader.  (A close
        waits until the reader has taken every byte written: from one that never reads, never; uvicorn's own
        keepalive closes it that way, and the connection, its buffers and its socket's task stayed for ever.)"""
        transport = self._protocol.transport
        if transport is not None:
            transport.abort()


def direct_writer(scope: Scope) -> DirectWriter | None:
    """The direct writer of a WebSocket's connection, when the server is uvicorn's ``websockets-sansio``
    protocol with no extension negotiated; ``None`` otherwise (every message then goes the usual way)."""
    protocol = _sansio_protocol(scope)
    if protocol is None:
        return None
    # uvicorn's protocol is not a public interface: a version whose protocol lacks what the writer reads
    # (renamed, moved) gets every message the usual way, never an error in the middle of a match
    if not all(hasattr(protocol, name) for name in _PROTOCOL_USES) or not hasattr(protocol.conn, "extensions"):
        return None
    if protocol.conn.extensions:
        return None
    return DirectWriter(protocol)


def stop_reading(scope: Scope) -> None:
    """Once the server is done with a WebSocket (refused, or its handler ended): its connection on uvicorn is
    closed now, which stops reading at once and still sends what was written (the refusal, the close frame).
    uvicorn's own close reads on, parsing every frame the client sends, until the client answers it or 10 s
    pass: a refused client streaming tiny frames kept the event loop parsing them (``/health``: 7 to 17 s)."""
    protocol = _sansio_protocol(scope)
    if protocol is not None and getattr(protocol, "transport", None) is not None:
        protocol.transport.close()


def _sansio_protocol(scope: Scope) -> Any:
    """The WebSocket's connection when the server is uvicorn's ``websockets-sansio`` protocol, else ``None``."""
    protocol: Any = getattr(scope.get(SEND_KEY), "__self__", None)
    return protocol if _SANSIO is not None and isinstance(protocol, _SANSIO) else None


_PROTOCOL_USES = ("transport", "handshake_complete", "close_sent", "disconnected", "initial_response", "writable", "conn")
"""What :meth:`DirectWriter.write` reads of uvicorn's protocol (checked once per socket)."""
