"""Attack: one address's API requests as fast as it can send them, on a real uvicorn server and real sockets.

Found by the attack pass (``benchmarks/api_flood.py``, real ``nines serve``): no API request but the lobby's,
the tables made and the records read had a rate of its own.  One client at 127.0.0.2, eight requests at a time,
made 250 to 740 a second of a table's view (``/state``, rendered under the table's lock), its info, options
resolved, a person's statistics (database reads: 3.8 ms of the server's CPU each, a core 95% busy), seat claims
and moves refused (guessing: 403 each, unbounded), and the list of games (described anew each time: 2.7 ms, a
core 91% busy, and one of the first requests at once failed with a 500: ``ast.parse`` in two threads at once,
``SystemError: AST constructor recursion depth mismatch``).  Now an address makes at most
``Limits.requests_per_minute`` API requests (1200, a moving window; ``/health``, pages, static files and table
sockets are not counted), refused with 429 before anything is looked up, and the games are described once.

Within that rate (and the 100 connections an address may hold), 64 requests of a person's statistics at once
(``--kind stats --concurrency 64``, PostgreSQL) made a seated person's move wait 208 ms for its
acknowledgement instead of 3 ms: the moves' commits ran in the default thread pool, behind every request's
database work.  The journal now commits in threads of its own, and an address may have
``Limits.requests_at_once`` (16) API requests under way at once: under the same flood, on this shared 2-core
machine (the flooding client and PostgreSQL on the same cores), ``/health`` p50 73 ms against 146 ms with
no such bound, a move 45 ms against 83 ms.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from nines.server.guard.limits import Limits
from nines.server.http import describe
from nines.server.store.database import SeqConflict, StoredAction
from nines.server.store.journal import MoveJournal

from .test_attack_readers import BOUND_S, serving

SEATS: dict[str, Any] = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}


@pytest.mark.databases
def test_an_address_makes_a_bounded_number_of_api_requests_and_a_refused_one_does_nothing(database_url: str) -> None:
    with serving(database_url, Limits(requests_per_minute=6, messages_per_second=1000)) as (port, _app):
        base = f"http://127.0.0.1:{port}"
        flooder = httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with flooder, httpx.Client(base_url=base, timeout=30) as person:
            created = flooder.post("/api/tables", json={"game": "neuf", "seats": SEATS})
            assert created.status_code == 201, created.text
            table_id, invite = created.json()["table"]["id"], created.json()["invite"]
            for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/state", "/api/games",
                         "/api/people/Ann/stats", "/api/games"):
                assert flooder.get(path).status_code == 200, path

            # the seventh in the minute, of any kind: refused before anything is looked up or stored
            for method, path, body in (("GET", f"/api/tables/{table_id}/state", None),
                                       ("POST", "/api/people", {"name": "Ann"}),
                                       ("POST", f"/api/tables/{table_id}/join", {"seat": "E", "invite": invite, "name": "Bea"}),
                                       ("POST", f"/api/tables/{table_id}/claim", {"claim": "x" * 24}),
                                       ("POST", "/api/games/neuf/resolve", {"options": {}})):
                refused = flooder.request(method, path, json=body)
                assert refused.status_code == 429, (path, refused.text)
                said = refused.json()
                assert said["code"] == "limit" and said["key"] == "server.limit_requests" and said["params"] == {"count": 6}
                assert "6 requests in the last minute" in said["message"]

            # health, pages and static files are not API requests; another address has its own count
            assert flooder.get("/health").status_code == 200
            assert flooder.get("/").status_code == 200
            assert person.get("/api/people/Ann/stats").json()["known"] is False  # the refused name was not stored
            seats = {s["seat"]: s for s in person.get(f"/api/tables/{table_id}").json()["seats"]}
            assert seats["E"]["kind"] == "open", seats["E"]  # nor the seat taken


def test_the_games_are_described_once_however_many_ask_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(describe, "_described", [])
    described: list[str] = []
    real = describe.describe_game

    def counted(spec: Any) -> dict[str, Any]:
        described.append(spec.id)
        return real(spec)

    monkeypatch.setattr(describe, "describe_game", counted)
    start = threading.Barrier(8)
    answers: list[list[dict[str, Any]]] = []

    def ask() -> None:
        start.wait()
        answers.append(describe.describe_games())

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert len(answers) == 8 and all(answer == answers[0] for answer in answers)
    assert sorted(described) == sorted(game["id"] for game in answers[0]), described  # each game once, not once a request


class _Instant:
    """A store that stores every move at once."""

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]:
        return [None] * len(batch)


def test_a_move_is_committed_while_the_requests_hold_every_thread_of_the_default_pool() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        release = threading.Event()
        # the requests' database work (statistics, names, tables loaded), every thread of the default pool held
        held = [loop.run_in_executor(None, release.wait) for _ in range(64)]
        try:
            journal = MoveJournal(_Instant())
            await asyncio.wait_for(journal.append("t", StoredAction(seq=1, seat="S", by="S", action="keep"), first=True), 10)
        finally:
            release.set()
            await asyncio.gather(*held)

    asyncio.run(main())


def _held_request(port: int) -> socket.socket:
    """An API request under way: its head sent, and half of its body (the application waits for the rest)."""
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(b"POST /api/people HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n"
                   b'{"name"')
    return client


def test_an_address_has_a_bounded_number_of_api_requests_under_way_at_once(database_url: str) -> None:
    with serving(database_url, Limits(requests_at_once=2, messages_per_second=1000)) as (port, _app):
        base = f"http://127.0.0.1:{port}"
        held = [_held_request(port) for _ in range(2)]
        try:
            with httpx.Client(base_url=base, timeout=30) as same, \
                    httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
                deadline = time.monotonic() + BOUND_S
                while (refused := same.get("/api/games")).status_code == 200:  # the server counts them as it reads them
                    assert time.monotonic() < deadline, "a third request at once was served"
                    time.sleep(0.05)
                assert refused.status_code == 429, refused.text
                said = refused.json()
                assert said["key"] == "server.limit_at_once" and said["params"] == {"count": 2}, said
                assert "2 requests under way" in said["message"]
                assert same.get("/health").status_code == 200  # not an API request
                assert other.get("/api/games").status_code == 200  # another address
                for client, name in zip(held, (b"Ann", b"Bea"), strict=True):  # their answers given, the address may ask again
                    client.sendall(b': "' + name + b'"}')
                    assert client.recv(4096).startswith(b"HTTP/1.1 200 ")
                deadline = time.monotonic() + BOUND_S
                while (again := same.get("/api/games")).status_code != 200:
                    assert time.monotonic() < deadline, again.text
                    time.sleep(0.05)
        finally:
            for client in held:
                client.close()
