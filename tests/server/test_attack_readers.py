"""Attack: clients that never read what the server writes them, on a real uvicorn server and real sockets.

Found by the attack pass (``nines serve``, SQLite): a client that opens a table socket with a tiny receive
window and never reads, asking for the whole state again and again (``resync``), filled its connection's
buffers; from then on every message for it waited for a reader that never came.  Its request's answer
waited for ever (the socket's messages were no longer read), its seat showed as present, uvicorn's keepalive
"closed" it after 40 s by a close that waits for the reader to take every byte (never), and the server could
not stop (SIGTERM: still running 20 s later).  A socket over its queued bytes was "dropped" the same way.
Now a socket whose reader takes nothing for ``stall_s`` while messages wait, or whose queue goes over its
bound, has its connection aborted: everything it held is let go at once.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
import uvicorn
from fastapi import FastAPI, WebSocket
from websockets.frames import Frame, Opcode

from nines.server import ServerConfig, create_app
from nines.server.guard.limits import Limits
from nines.server.wire.frames import SEND_KEY, DirectWriter
from nines.server.wire.sockets import SocketConnection

BOUND_S = 60.0  # a bound on failure only (a loaded machine is slow); the tests wait for events, not for time


@contextmanager
def serving(database_url: str, limits: Limits, ping_s: float = 20.0, ws: Any = "auto") -> Iterator[tuple[int, FastAPI]]:
    """The real app under uvicorn (as ``nines serve`` runs it: a keepalive ping every ``ping_s``, uvicorn's
    20 s by default, and as long to answer it) in a thread; it must stop when asked."""
    app = create_app(ServerConfig(database_url=database_url, bot_delay_ms=0, log_json=False, review_processes=False, thinking_processes=False,
                                  limits=limits))
    # port 0: the system picks a free port as the server binds (one found free beforehand may be taken by then)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, access_log=False,
                                           log_level="warning", ws_max_size=limits.frame_bytes,
                                           ws_per_message_deflate=False, ws_ping_interval=ping_s, ws_ping_timeout=ping_s,
                                           ws=ws))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port, app
    finally:
        server.should_exit = True
        thread.join(timeout=BOUND_S)
        assert not thread.is_alive(), "the server did not stop"


def _silent_socket(port: int, path: str) -> socket.socket:
    """A WebSocket client with the smallest receive window, which will never read past the handshake."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    client.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    client.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += client.recv(1)
    assert b" 101 " in answer, answer
    return client


def _frame(message: dict[str, Any]) -> bytes:
    return Frame(Opcode.TEXT, json.dumps(message).encode()).serialize(mask=True)


def _wait(predicate: Any, what: str) -> None:
    deadline = time.monotonic() + BOUND_S
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@contextmanager
def _seated_reader_that_never_reads(port: int, app: FastAPI) -> Iterator[tuple[socket.socket, Any]]:
    """A person seated at a new table (with two computer players) by a raw socket that never reads; the
    server's side of its connection takes no more than a few kilobytes in the kernel (its send buffer
    otherwise grows to megabytes before the server's own buffers fill: the same, slower)."""
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
    created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "neuf", "seats": seats}, timeout=30)
    table_id, token = created.json()["table"]["id"], created.json()["token"]
    table = app.state.manager.tables[table_id]
    client = _silent_socket(port, f"/ws/tables/{table_id}")
    try:
        client.sendall(_frame({"type": "hello", "seat": "S", "token": token}))
        _wait(lambda: table.connections, "the socket was never seated")
        (conn,) = table.connections
        protocol = conn.websocket.scope[SEND_KEY].__self__
        protocol.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        yield client, table
    finally:
        client.close()


@pytest.mark.databases
def test_a_client_that_never_reads_is_let_go_and_the_server_still_stops(database_url: str) -> None:
    limits = Limits(messages_per_second=1000, stall_s=0.5)
    with serving(database_url, limits) as (port, app), _seated_reader_that_never_reads(port, app) as (client, table):
        # 200 whole states asked for (some 300 kB): far more than the connection's buffers hold
        client.sendall(b"".join(_frame({"type": "resync"}) for _ in range(200)))
        _wait(lambda: not table.connections, "a socket whose reader never reads was kept (its seat shown present)")
        assert table.info_body()["seats"][0]["connected"] is False
        # and the connection itself is gone, not waiting for the client to read what it held
        client.settimeout(BOUND_S)
        with pytest.raises(OSError):
            while client.recv(65536):
                pass
            raise ConnectionResetError("closed by the server")  # an orderly end is fine too


@pytest.mark.databases
def test_a_client_that_never_reads_is_let_go_after_the_keepalive_closes_it(database_url: str) -> None:
    """Fewer bytes held for it than fill the connection's buffers, so no message waits: uvicorn's keepalive
    then closes the connection (its ping unanswered), by a close that waits for the reader to take those bytes.
    Found: the seat still shown present 30 s after that close, the server's socket established, and SIGTERM
    did not stop the server."""
    limits = Limits(messages_per_second=1000, stall_s=0.5)
    with (serving(database_url, limits, ping_s=1.0) as (port, app),
          _seated_reader_that_never_reads(port, app) as (client, table)):
        # some 30 kB: more than the kernel takes, less than uvicorn's buffer takes before it stops writing
        client.sendall(b"".join(_frame({"type": "resync"}) for _ in range(20)))
        _wait(lambda: not table.connections, "a socket closed by the keepalive, its bytes unread, was kept")


class _Protocol:
    """What :class:`DirectWriter` reads of uvicorn's protocol: an open connection whose buffers are full."""

    def __init__(self) -> None:
        self.handshake_complete, self.close_sent, self.disconnected, self.initial_response = True, False, False, None
        self.writable = asyncio.Event()  # cleared: the reader takes nothing
        self.conn = SimpleNamespace(state=None, extensions=[])
        self.transport = SimpleNamespace(aborted=False, is_closing=lambda: False)
        self.transport.abort = lambda: setattr(self.transport, "aborted", True)


def test_a_socket_over_its_queued_bytes_has_its_connection_aborted_not_only_closed() -> None:
    """A close waits for the reader to take every byte written; a reader that stopped reading never does."""

    async def main() -> _Protocol:
        protocol = _Protocol()
        conn = SocketConnection(cast(WebSocket, SimpleNamespace(scope={})), None, max_queued_bytes=100, stall_s=600)
        conn._direct = DirectWriter(protocol)
        for _ in range(20):
            conn.send_text("x" * 10)
        assert conn._closed
        assert conn.queued_bytes == 0  # nothing held for it any more
        return protocol

    assert asyncio.run(main()).transport.aborted
