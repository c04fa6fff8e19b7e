"""Attack: new names claimed as fast as a client can send them, on a real uvicorn server and real sockets.

Found by the attack pass (``nines serve``, ``benchmarks/api_flood.py --kind people``): every name new to
the database is a row kept for good (``store.own_name``), and nothing bounded how many one client could
add: one client at 127.0.0.2 added 130 rows a second on SQLite and on PostgreSQL (about 11 million a day),
by ``POST /api/people`` or a fresh name with each table created or seat taken.  Now an address may claim
``Limits.names_per_hour`` new names (60 by default); using a name it owns again is not counted, and a
refused name leaves nothing behind: no row, no table, no seat taken.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from nines.server.guard.limits import Limits

from .test_attack_readers import serving

SEATS: dict[str, Any] = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}


def _refused_for_names(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "limit" and body["key"] == "server.limit_names" and body["params"] == {"count": 3}, body
    assert "3 new names in the last hour" in body["message"]


@pytest.mark.databases
def test_an_address_claims_a_bounded_number_of_new_names_and_a_refused_one_leaves_nothing(database_url: str) -> None:
    with serving(database_url, Limits(names_per_hour=3, messages_per_second=1000)) as (port, _app):
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as one:
            for name in ("Ann", "Bea"):
                assert one.post("/api/people", json={"name": name}).status_code == 200
            table = one.post("/api/tables", json={"game": "neuf", "seats": SEATS, "name": "Cy"})
            assert table.status_code == 201, table.text
            table_id, invite = table.json()["table"]["id"], table.json()["invite"]

            # the fourth new name, three ways: refused, and nothing of it stored
            _refused_for_names(one.post("/api/people", json={"name": "Dee"}))
            _refused_for_names(one.post("/api/tables", json={"game": "neuf", "seats": SEATS, "name": "Dee"}))
            _refused_for_names(one.post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": invite, "name": "Dee"}))
            assert one.get("/api/people/Dee/stats").json()["known"] is False
            seats = {s["seat"]: s for s in one.get(f"/api/tables/{table_id}").json()["seats"]}
            assert seats["E"]["kind"] == "open", seats["E"]

            # names this browser owns are used again freely
            for _ in range(5):
                assert one.post("/api/people", json={"name": "Ann"}).status_code == 200
            joined = one.post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": invite, "name": "Bea"})
            assert joined.status_code == 200, joined.text

        # another address has its own count
        with httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
            assert other.post("/api/people", json={"name": "Dee"}).status_code == 200
            assert other.get("/api/people/Dee/stats").json()["known"] is True
