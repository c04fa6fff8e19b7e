"""Attack: a socket that floods the server with tiny frames, on a real uvicorn server and real sockets.

Found by the attack pass (``nines serve``, SQLite): one anonymous spectator's socket sending 8-byte frames
(``{}``, or one binary byte) as fast as it could made ``/health`` take 26.7 s and a table's creation 43.8 s
(266 ms before the flood).  uvicorn queues every frame of what it reads at once (256 kB: some 30,000
frames), the socket's loop takes them one after another without the event loop's turn coming round (a
queue that holds something is read without waiting), and every frame was answered: refused over the rate
(built, serialized and written each time), and binary frames were not even counted against the rate.  Now
every frame counts, and a socket that goes on sending ten times its rate of refused messages, none let
through, is dropped: after a bounded number of answers, whatever it sends.

And a socket the server refuses (another site's page, too many sockets, a hello that is not one) was read
on after its refusal: uvicorn's close waits up to 10 s for the client's answer, parsing every frame the
client sends meanwhile.  A refused client streaming tiny frames made ``/health`` take 7 to 17 s.  Now once
the server is done with a socket its connection is closed at once (what was written is still sent).
"""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

from nines.server.guard.limits import Limits

from .test_attack_readers import BOUND_S, serving

RATE = 5


def _flooding_socket(port: int, path: str) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += client.recv(1)
    assert b" 101 " in answer, answer
    return client


@pytest.mark.databases
@pytest.mark.parametrize("kind", ["text", "binary"])
def test_a_socket_flooding_tiny_frames_is_dropped_after_a_bounded_number_of_answers(database_url: str, kind: str) -> None:
    with serving(database_url, Limits(messages_per_second=RATE)) as (port, _app):
        seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "neuf", "seats": seats,
                                                                           "bot_delay_ms": 5000}, timeout=30)
        client = _flooding_socket(port, f"/ws/tables/{created.json()['table']['id']}")
        try:
            flood = Frame(Opcode.TEXT, b"{}") if kind == "text" else Frame(Opcode.BINARY, b"x")
            client.sendall(Frame(Opcode.TEXT, json.dumps({"type": "hello"}).encode()).serialize(mask=True)
                           + flood.serialize(mask=True) * 5000)
            # the answers: at most the rate's worth let through and ten times it refused, then the socket is closed
            most = RATE + 10 * RATE + 1
            received = b""
            client.settimeout(BOUND_S)
            deadline = time.monotonic() + BOUND_S
            ended = False
            while not ended and received.count(b'"type":"error"') <= most:
                assert time.monotonic() < deadline, "the flooding socket was neither dropped nor answered"
                try:
                    chunk = client.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                ended = not chunk
                received += chunk
            answered = received.count(b'"type":"error"')
            assert ended, f"still open after {answered} answers to a flood of 5000 {kind} frames"
            assert RATE <= answered <= most
        finally:
            client.close()


class _PatientClose(WebSocketsSansIOProtocol):
    """uvicorn's protocol waiting an hour, not 10 s, for the client to answer its close: what this test tells
    apart is whether the server reads on after it is done with a socket, not how long uvicorn waits."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.close_timeout = 3600.0


@pytest.mark.databases
@pytest.mark.parametrize("refusal", ["origin", "hello"])
def test_a_refused_socket_is_not_read_on_after_its_refusal(database_url: str, refusal: str) -> None:
    with serving(database_url, Limits(), ws=_PatientClose) as (port, _app):
        seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "neuf", "seats": seats,
                                                                           "bot_delay_ms": 5000}, timeout=30)
        origin = "Origin: http://elsewhere.example\r\n" if refusal == "origin" else ""
        client = socket.create_connection(("127.0.0.1", port))
        try:
            client.sendall((f"GET /ws/tables/{created.json()['table']['id']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                            f"{origin}Upgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            if refusal == "hello":
                client.sendall(Frame(Opcode.TEXT, b"not a hello").serialize(mask=True))
            # the refusal and the server's close frame come; the client never answers the close, and the server,
            # done with the socket, ends the connection instead of reading on
            client.settimeout(BOUND_S)
            received = b""
            try:
                while chunk := client.recv(65536):
                    received += chunk
            except TimeoutError:
                pytest.fail(f"the server reads on after refusing the socket ({received.count(b'error')} refusal seen)")
            except ConnectionResetError:
                pass
            assert b'"type":"error"' in received
        finally:
            client.close()
