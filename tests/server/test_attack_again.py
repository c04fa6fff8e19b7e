"""Attack: play again handed a person's seat to anyone holding the new table's invitation.

Found by the ninth round's probe: whoever answered play again first (even declining) got the new table's
invitation, and a stranger joining with it took the seat of a person who had not yet answered (200); that
person was then refused ("seat E has already been taken", 409).  Now the seats of the last match's people
stay theirs at the new table until they answer (a decline frees the seat) or ``Limits.again_hold_s`` (5
minutes) passes since it was made; meanwhile the seat is refused to others (409, ``server.seat_kept``).
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from starlette.testclient import TestClient

from nines.server.guard.limits import Limits
from nines.server.tables.seats import Seats
from nines.server.tables.table import Seat

from .helpers import Socket, another_browser, create_table


def _browser(client: TestClient) -> TestClient:
    return another_browser(client)


def test_a_stranger_with_the_new_invitation_cannot_take_the_seat_of_someone_still_deciding(client: TestClient) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "open"}}
    seated = create_table(client, "neuf", seats, name="Ann", options={"start_score": 1}, away_s=1, bot_delay_ms=0, clock_s=30)
    table_id, invite = seated["table"]["id"], seated["invite"]
    bea, cy, stranger = _browser(client), _browser(client), _browser(client)
    joined: dict[str, Any] = {}
    for who, seat, name in ((bea, "W", "Bea"), (cy, "E", "Cy")):
        joined[seat] = who.post(f"/api/tables/{table_id}/join", json={"seat": seat, "invite": invite, "name": name}).json()
    with Socket(client, table_id) as watcher:  # nobody plays: stand-ins finish the match
        watcher.receive_until(lambda m: m["type"] == "state" and m["table"]["status"] == "over", limit=100000)
    ann = client.post(f"/api/tables/{table_id}/again", json={"seat": "S", "token": seated["token"]}).json()
    new_id, new_invite = ann["table"]["id"], ann["invite"]
    # Ann shares the new invitation (or a stranger saw it): Bea's and Cy's seats are still theirs
    for seat in ("W", "E"):
        refused = stranger.post(f"/api/tables/{new_id}/join", json={"seat": seat, "invite": new_invite, "name": "Eve"})
        assert refused.status_code == 409, refused.text  # before: 200, the seat taken
        assert refused.json()["key"] == "server.seat_kept" and refused.json()["params"]["seat"] == seat
    # shown open meanwhile (no name of the person it is kept for)
    assert [(s["kind"], s["name"]) for s in client.get(f"/api/tables/{new_id}").json()["seats"]][1:] == [("open", None)] * 2
    # Bea answers yes: seated (before: 409, "seat W has already been taken")
    bea_again = bea.post(f"/api/tables/{table_id}/again", json={"seat": "W", "token": joined["W"]["token"]})
    assert bea_again.status_code == 200 and bea_again.json()["seat"] == "W", bea_again.text
    # Cy declines: the seat is anyone's
    assert cy.post(f"/api/tables/{table_id}/again", json={"seat": "E", "token": joined["E"]["token"], "accept": False}).status_code == 200
    taken = stranger.post(f"/api/tables/{new_id}/join", json={"seat": "E", "invite": new_invite, "name": "Eve"})
    assert taken.status_code == 200, taken.text


def test_a_kept_seat_is_its_persons_own_by_name_and_anyones_after_the_stated_time() -> None:
    made = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    table = SimpleNamespace(created_at=made, seats={"W": Seat("W", "open", person="Bea"), "E": Seat("E", "open"),
                                                    "N": Seat("N", "open", person="")})
    seats = Seats(SimpleNamespace(config=SimpleNamespace(limits=Limits())))  # type: ignore[arg-type]
    assert seats.kept_for(table, "W") == "Bea"  # type: ignore[arg-type]
    assert seats.kept_for(table, "N") == ""  # type: ignore[arg-type]  # a person with no name: only play again seats them
    assert seats.kept_for(table, "E") is None  # type: ignore[arg-type]
    table.created_at = made - dt.timedelta(seconds=Limits().again_hold_s)  # the stated time has passed
    assert seats.kept_for(table, "W") is None  # type: ignore[arg-type]
    assert Limits().again_hold_s == 300
