"""Attack: clients that send their request slowly or never, or open many connections, against the real
``nines serve``.

Found by the eighth round's reading of uvicorn: a connection that sent nothing, half a request's head, or
a head announcing 200 bytes of body followed by 7, was held for as long as the client liked (uvicorn sets
no deadline before a head is complete, and none for a body), each one a file descriptor and, for the body,
a task of the application's; and ``nines serve`` asked to stop (SIGTERM) while a body was half sent waited
for it for ever ("Waiting for connections to close"). Now a request's head and its whole request each have
``--request-timeout`` seconds (408, connection closed), and a stopping server closes what is still open
after ``--shutdown-timeout`` seconds.

Found next: 1,100 idle connections from one address used up a server's 1,024 open files (a service's usual
soft limit), after which every other client's request failed.  Now an address's open HTTP connections are
bounded (``--connections-per-address``; table sockets are counted apart), and ``nines serve`` raises its
soft limit on open files to the hard one.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from ..services import ServerProcess
from ..waiting import wait_until

BOUND_S = 30.0  # a bound on failure only (a loaded machine is slow): each test waits for the server's answer
HEAD = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # no blank line: the head is never complete
HALF_BODY = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 200\r\n\r\n{\"game\"")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``nines serve`` on SQLite, giving a request 1.5 s and an address five open connections."""
    folder = tmp_path_factory.mktemp("slow")
    server = ServerProcess(f"sqlite:///{folder / 'nines.db'}", folder=folder,
                           options=["--request-timeout", "1.5", "--connections-per-address", "5"])
    try:
        yield server
    finally:
        server.stop()


def _open(server: ServerProcess, me: str = "127.0.0.1") -> socket.socket:
    """A connection to the server from the loopback address ``me`` (each test's crowd has its own)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=BOUND_S, source_address=(me, 0))


def _health(conn: socket.socket) -> dict[str, object]:
    """Ask for /health on ``conn`` and read the whole answer, keeping the connection."""
    conn.sendall(HEAD + b"\r\n")
    answer = conn.recv(4096)
    while b"\r\n\r\n" not in answer:
        answer += conn.recv(4096)
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += conn.recv(4096)
    assert head.startswith(b"HTTP/1.1 200 "), head
    return dict(json.loads(body))


def _unread_by_server(server: ServerProcess, conn: socket.socket) -> int | None:
    """Bytes ``conn`` sent that the server's process has not read yet: the receive queue of the server's end
    of the connection, from the kernel's table of TCP sockets (``None`` while it is not there)."""
    client_port = conn.getsockname()[1]
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues = fields[1], fields[2], fields[4]
        if int(local.split(":")[1], 16) == server.port and int(remote.split(":")[1], 16) == client_port:
            return int(queues.split(":")[1], 16)
    return None


def _until_closed(conn: socket.socket) -> bytes:
    """Everything the server writes until it closes the connection (a timeout if it never does)."""
    got = b""
    while chunk := conn.recv(4096):
        got += chunk
    return got


def test_a_connection_that_sends_nothing_is_closed_after_the_request_timeout(quick: ServerProcess) -> None:
    with _open(quick) as conn:
        started = time.monotonic()
        answer = _until_closed(conn)  # before: no answer, the connection held for ever (recv timed out)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"not sent within 1.5 s" in answer
    assert 1.0 < time.monotonic() - started < BOUND_S


def test_half_a_head_trickled_a_byte_at_a_time_does_not_hold_the_connection(quick: ServerProcess) -> None:
    with _open(quick) as conn:
        started = time.monotonic()
        conn.settimeout(0.3)
        answer = b""
        # a byte every 0.3 s (a minute's worth): the head is never complete, and the trickle must not restart
        # the deadline
        for byte in HEAD * 10:
            try:
                conn.sendall(bytes([byte]))
                answer = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:  # closed by the server
                break
            break  # the server answered (or closed: b"")
        took = time.monotonic() - started
        conn.settimeout(BOUND_S)
        answer += _until_closed(conn)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    # the deadline counted from the first byte, not the last: the trickle runs 120 s, and restarting the deadline
    # at each byte, the server would never answer during it (the bound is generous for a loaded machine)
    assert took < 1.5 + BOUND_S


def test_a_body_never_finished_is_answered_408_and_its_connection_closed(quick: ServerProcess) -> None:
    with _open(quick) as conn:
        conn.sendall(HALF_BODY)
        started = time.monotonic()
        answer = _until_closed(conn)  # before: no answer ever; the application's task waited for the body
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert json.loads(body) == {"type": "error", "code": "limit",
                                "message": "the request's body was not sent within 1.5 s"}
    assert time.monotonic() - started < BOUND_S
    # and nothing was made of the half request
    assert httpx.get(f"{quick.http}/api/tables", timeout=BOUND_S).json() == []


def test_a_kept_alive_connection_waiting_for_its_next_head_has_the_same_deadline(quick: ServerProcess) -> None:
    with _open(quick) as conn:
        assert _health(conn)["status"] == "ok"  # a whole request: answered, the connection kept alive
        conn.sendall(b"GET /health HTTP/1.1\r\n")  # then half of the next one
        answer = _until_closed(conn)
    assert answer.startswith(b"HTTP/1.1 408 "), answer


def test_requests_and_sockets_in_time_are_untouched(quick: ServerProcess) -> None:
    created = httpx.post(f"{quick.http}/api/tables", timeout=BOUND_S, json={
        "game": "neuf", "seats": {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}},
    })
    assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]

    async def socket_past_the_deadline() -> str:
        # a table socket's handshake is a request's head; once upgraded, the socket lives past the deadline
        async with connect(f"{quick.ws}/ws/tables/{table}", open_timeout=BOUND_S) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            first = json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))
            # twice the request timeout: a sleep that makes the situation (a socket older than the deadline); a
            # busy machine only makes it longer, which the test's claim allows
            await asyncio.sleep(3.0)
            await ws.send(json.dumps({"type": "resync"}))
            while True:
                again = json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))
                if again["type"] == "state":
                    return str(first["type"]) + "," + str(again["type"])

    assert asyncio.run(socket_past_the_deadline()) == "state,state"


def test_a_stopping_server_does_not_wait_for_ever_for_a_half_sent_body(tmp_path: Path) -> None:
    # the request's deadline is long here (60 s): what ends the wait is the shutdown's own timeout
    server = ServerProcess(f"sqlite:///{tmp_path / 'nines.db'}", folder=tmp_path,
                           options=["--request-timeout", "60", "--shutdown-timeout", "2"])
    try:
        with _open(server) as conn:
            conn.sendall(HALF_BODY)
            # the server has read the half request (its head parsed, the application waiting for the body):
            # waited for, not a fixed 0.5 s after which an unread request let the server stop at once
            wait_until(lambda: _unread_by_server(server, conn) == 0, timeout=BOUND_S, what="the server to read the request")
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=BOUND_S)  # before: still waiting for the body after 40 s
            except subprocess.TimeoutExpired:
                pytest.fail("nines serve did not stop while a request's body was half sent")
            assert time.monotonic() - started < BOUND_S
        assert "timeout graceful shutdown exceeded" in server.output()
    finally:
        server.stop()


def test_an_address_over_its_open_connections_is_answered_429_and_no_other_address_is(quick: ServerProcess) -> None:
    crowd = [_open(quick, "127.0.0.3") for _ in range(5)]  # idle, each within its deadline
    try:
        for conn in crowd[:2]:
            assert _health(conn)["status"] == "ok"
        with _open(quick, "127.0.0.3") as sixth:
            answer = _until_closed(sixth)  # before: taken, and held with the others
        assert answer.startswith(b"HTTP/1.1 429 "), answer
        assert b"this address has 5 connections open" in answer
        # another address is served while the crowd holds its five
        assert httpx.get(f"{quick.http}/health", timeout=BOUND_S).json()["status"] == "ok"
        crowd.pop().close()  # one of the five goes: the address may open another
        deadline = time.monotonic() + BOUND_S
        while True:  # the server counts the close when it reads it
            with _open(quick, "127.0.0.3") as again:
                try:
                    assert _health(again)["status"] == "ok"
                    break
                except AssertionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
    finally:
        for conn in crowd:
            conn.close()


def test_table_sockets_leave_the_count_of_connections(quick: ServerProcess) -> None:
    created = httpx.post(f"{quick.http}/api/tables", timeout=BOUND_S, json={
        "game": "neuf", "seats": {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}},
    })
    table = created.json()["table"]["id"]

    async def eight_sockets_then_a_request() -> str:
        sockets = [await connect(f"{quick.ws}/ws/tables/{table}", open_timeout=BOUND_S, local_addr=("127.0.0.4", 0))
                   for _ in range(8)]  # more than the five connections: each leaves the count once upgraded
        try:
            for ws in sockets:
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))["type"] == "state"
            with _open(quick, "127.0.0.4") as conn:
                return str(_health(conn)["status"])
        finally:
            for ws in sockets:
                await ws.close()

    assert asyncio.run(eight_sockets_then_a_request()) == "ok"


def test_nines_serve_raises_its_soft_limit_on_open_files_to_the_hard_one() -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(256, hard)
    script = (f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({low}, resource.getrlimit(resource.RLIMIT_NOFILE)[1])); "
              "from nines.server.guard.connections import raise_open_files_limit; print(raise_open_files_limit(), "
              "resource.getrlimit(resource.RLIMIT_NOFILE)[0])")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={**os.environ}).stdout.split()
    expected = hard if hard != resource.RLIM_INFINITY else 1 << 20
    assert out == [str(expected), str(expected)]
