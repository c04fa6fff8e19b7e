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
"""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from nines.server import describe
from nines.server.limits import Limits

from .test_attack_readers import serving

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
