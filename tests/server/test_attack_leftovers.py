"""Attack: the ninth round probe's smaller findings.

* One-time seat links (a new table's, "move to another device") never expired: a link shown once on a
  screen or in a chat seated whoever opened it, days later.  Now a link works for ``Limits.claim_s`` (15
  minutes); its secret starts with the time it expires, hashed with the rest.
* A text frame of invalid UTF-8 on a table socket logged an error-level traceback (uvicorn's
  ``logger.exception``): any client could fill the logs.  Now it is one line at info level; the socket is
  closed with 1007 as before.
* Unknown routes (404), methods (405) and other framework refusals answered FastAPI's ``{"detail": ...}``;
  now every refusal has the project's shape (``type``, ``code``, ``message``, ``key``).
* A socket frame over ``Limits.frame_bytes`` is refused by uvicorn before it is read, closing the socket with
  1009 (the docs said it stayed open; the docs now say what happens).
"""

from __future__ import annotations

import base64
import json
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.frames import Close, Frame, Opcode

from nines.server.guard.limits import Limits
from nines.server.tables.claims import claim_expired, new_claim

from ..services import ServerProcess
from .helpers import another_browser, create_table, me_and_bots

BOUND_S = 30.0


def test_a_claim_carries_the_time_it_expires() -> None:
    secret = new_claim(900, now=1_000_000)
    assert not claim_expired(secret, now=1_000_000 + 899)
    assert claim_expired(secret, now=1_000_000 + 900)
    assert claim_expired("no-time-in-it", now=0) and claim_expired("ff", now=0)  # links from before: expired


def test_a_seat_link_not_opened_in_time_seats_nobody(make_client: Callable[..., TestClient]) -> None:
    with make_client(limits=Limits(claim_s=0)) as client:  # every link expires as it is made
        seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"))
        table_id = seated["table"]["id"]
        claim = parse_qs(urlsplit(seated["url"]).query)["claim"][0]
        other = another_browser(client)
        refused = other.post(f"/api/tables/{table_id}/claim", json={"claim": claim})
        assert refused.status_code == 403, refused.text  # before: 200, the seat moved to the other browser
        assert refused.json()["key"] == "server.claim_expired"
    with make_client() as client:  # within its time, a link works once
        seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"))
        claim = parse_qs(urlsplit(seated["url"]).query)["claim"][0]
        assert another_browser(client).post(f"/api/tables/{seated['table']['id']}/claim", json={"claim": claim}).status_code == 200


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("leftovers")
    serving = ServerProcess(f"sqlite:///{folder / 'nines.db'}", folder=folder, options=["--log-level", "info"])
    try:
        yield serving
    finally:
        serving.stop()


def _socket(server: ServerProcess, table_id: str) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND_S)
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall((f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += conn.recv(1)
    assert b" 101 " in answer, answer
    return conn


def _close_code(conn: socket.socket) -> int:
    """Read until the server's close frame; its code."""
    got = b""
    while True:
        chunk = conn.recv(65536)
        assert chunk, f"closed without a close frame after {got[-200:]!r}"
        got += chunk
        at = 0
        while at + 2 <= len(got):  # walk the server's frames (unmasked)
            length = got[at + 1] & 0x7F
            head = 2 + (2 if length == 126 else 8 if length == 127 else 0)
            if at + head > len(got):
                break
            if length == 126:
                length = int.from_bytes(got[at + 2:at + 4], "big")
            elif length == 127:
                length = int.from_bytes(got[at + 2:at + 10], "big")
            if at + head + length > len(got):
                break
            if got[at] & 0x0F == Opcode.CLOSE.value:
                return Close.parse(got[at + head:at + head + length]).code
            at += head + length


def _table(server: ServerProcess) -> str:
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
    created = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats}, timeout=BOUND_S)
    assert created.status_code == 201, created.text
    return str(created.json()["table"]["id"])


def test_invalid_utf8_in_a_socket_frame_closes_it_without_an_error_logged(server: ServerProcess) -> None:
    table_id = _table(server)
    with _socket(server, table_id) as conn:
        conn.sendall(Frame(Opcode.TEXT, b'{"type": "hello", "x": "\xff\xfe"}').serialize(mask=True))
        assert _close_code(conn) == 1007
    logged = server.output()
    assert "Traceback" not in logged and "Invalid UTF-8" not in logged, logged[-2000:]  # before: an ERROR with a traceback
    assert "socket.invalid_utf8" in logged
    errors = [line for line in logged.splitlines() if '"level": "error"' in line or " ERROR " in line]
    assert errors == [], errors


def test_a_frame_over_the_bound_closes_the_socket_with_1009(server: ServerProcess) -> None:
    table_id = _table(server)
    with _socket(server, table_id) as conn:
        conn.sendall(Frame(Opcode.TEXT, b'{"type": "hello"}').serialize(mask=True))
        conn.sendall(Frame(Opcode.TEXT, b" " * (Limits().frame_bytes + 1)).serialize(mask=True))
        assert _close_code(conn) == 1009


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/api/no-such-thing", 404, "not_found"),
    ("GET", "/no/such/page.css", 404, "not_found"),
    ("PUT", "/api/tables", 405, "malformed"),
    ("POST", "/health", 405, "malformed"),
    ("DELETE", "/api/games", 405, "malformed"),
])
def test_framework_refusals_have_the_projects_shape(server: ServerProcess, method: str, path: str, status: int, code: str) -> None:
    answer = httpx.request(method, f"{server.http}{path}", timeout=BOUND_S)
    assert answer.status_code == status
    body = answer.json()
    assert "detail" not in body, body  # before: {"detail": "Not Found"}
    assert body["type"] == "error" and body["code"] == code and body["key"] == f"server.{code}" and body["message"], body


def test_a_body_refusal_has_the_projects_shape_too(server: ServerProcess, tmp_path: Path) -> None:
    answer = httpx.post(f"{server.http}/api/tables", content=b"{" * (Limits().body_bytes + 1),
                        headers={"content-type": "application/json"}, timeout=BOUND_S)
    assert answer.status_code == 413
    assert answer.json()["key"] == "server.limit", answer.json()
    malformed = httpx.post(f"{server.http}/api/tables", content=b"{", headers={"content-type": "application/json"}, timeout=BOUND_S)
    assert malformed.status_code == 422 and malformed.json()["key"] == "server.malformed", malformed.json()
    assert json.loads(malformed.text)["type"] == "error"
