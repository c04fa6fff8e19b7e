"""Attack: requests the server refuses must leave everything as it was.

Found by the attack pass: a name given with a join or a new table was made the browser's (a row in the
database, a cookie set, and since ``names_per_hour`` one of the address's new names spent) before the
request was checked, so a join with a wrong invitation, to a table that does not exist or to a seat that
is not one, and a table asked for with a computer player that is not one, were refused and stored the name
all the same.  Now the name is claimed once the request is known to be one that can be met.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from nines.server.guard.limits import Limits

SEATS: dict[str, Any] = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}


@pytest.mark.databases
def test_a_refused_join_or_table_stores_no_name(make_client: Callable[..., TestClient]) -> None:
    with make_client(limits=Limits(names_per_hour=2, messages_per_second=1000)) as client:
        created = client.post("/api/tables", json={"game": "neuf", "seats": SEATS}).json()
        table_id, invite = created["table"]["id"], created["invite"]
        refused = [
            ("POST", f"/api/tables/{table_id}/join", {"seat": "E", "invite": "not-the-invite", "name": "Zed"}, 403),
            ("POST", "/api/tables/nosuchtable/join", {"seat": "E", "invite": invite, "name": "Zed"}, 404),
            ("POST", f"/api/tables/{table_id}/join", {"seat": "N", "invite": invite, "name": "Zed"}, 404),
            ("POST", "/api/tables", {"game": "neuf", "seats": {**SEATS, "W": {"kind": "bot", "bot": "nobody"}}, "name": "Zed"}, 422),
            ("POST", "/api/tables", {"game": "neuf", "seats": SEATS, "options": {"start_score": 1000}, "name": "Zed"}, 422),
        ]
        for method, path, body, status in refused:
            answer = client.request(method, path, json=body)
            assert answer.status_code == status, (path, answer.text)
            assert not any(cookie.startswith("nines_name_") for cookie in answer.cookies), (path, answer.cookies)
        assert client.get("/api/people/Zed/stats").json()["known"] is False
        # nor was one of the address's two new names spent: both are there for requests that can be met
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": invite, "name": "Zed"})
        assert joined.status_code == 200, joined.text
        assert client.post("/api/tables", json={"game": "neuf", "seats": SEATS, "name": "Yan"}).status_code == 201
        assert client.get("/api/people/Zed/stats").json()["known"] is True
