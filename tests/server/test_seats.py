"""Seats that cannot be handed over by accident, names that are a person's, and playing again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.testclient import TestClient

from .helpers import Socket, another_browser, create_table, me_and_bots


def claim_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["claim"][0]


def test_the_one_time_url_seats_the_first_browser_and_a_copied_address_watches(client: TestClient) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Ann")
    table_id, url = seated["table"]["id"], seated["url"]
    assert url.startswith(f"/neuf?t={table_id}&claim=S.") and seated["token"] not in url
    # the browser that opens the url first holds the seat: an HttpOnly cookie for the table's socket
    response = client.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(url)})
    assert response.status_code == 200 and response.json()["seat"] == "S"
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path=/ws/tables/{table_id}" in cookie
    with Socket(client, table_id, cookies=True) as ann:
        assert ann.next_state()["you"] == "S"
    # the table's address opened in another browser is a spectator's; the used url is refused clearly
    other = another_browser(client)
    with Socket(other, table_id, cookies=True) as copy:
        assert copy.next_state()["you"] is None
    used = other.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(url)})
    assert used.status_code == 409 and used.json()["code"] == "conflict"
    assert "already used" in used.json()["message"] and "watch" in used.json()["message"]
    # the token given at creation (for programs) no longer holds the seat: the browser's does
    assert client.get(f"/api/tables/{table_id}/state", headers={"X-Nines-Seat": "S", "X-Nines-Token": seated["token"]}).status_code == 403


def test_moving_a_seat_to_another_device_works_once(client: TestClient) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Ann")
    table_id = seated["table"]["id"]
    client.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(seated["url"])})
    phone = another_browser(client)
    with Socket(client, table_id, cookies=True) as laptop:
        assert laptop.next_state()["you"] == "S"
        laptop.send({"type": "device_link"})
        link = laptop.receive_until(lambda m: m["type"] == "device_link")["url"]
        assert phone.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(link)}).status_code == 200
        # the laptop now watches; the phone holds the seat
        assert laptop.receive_until(lambda m: m["type"] == "state" and m["you"] is None)["you"] is None
        with Socket(phone, table_id, cookies=True) as sock:
            assert sock.next_state()["you"] == "S"
    with Socket(client, table_id, cookies=True) as laptop:
        assert laptop.next_state()["you"] is None
    assert client.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(link)}).status_code == 409


def test_a_used_invitation_says_the_seat_is_taken_and_offers_the_others(client: TestClient) -> None:
    seats = {"N": {"kind": "me"}, "E": {"kind": "open"}, "S": {"kind": "open"}, "W": {"kind": "bot", "bot": "basic"}}
    seated = create_table(client, "elyigit", seats)
    table_id = seated["table"]["id"]
    first = client.post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": seated["invite"]})
    assert first.status_code == 200 and f"Path=/ws/tables/{table_id}" in first.headers["set-cookie"]
    late = another_browser(client).post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": seated["invite"]})
    assert late.status_code == 409
    message = late.json()["message"]
    assert "seat E has already been taken" in message and "watch" in message and "open seat: S" in message


def test_a_name_belongs_to_the_first_browser_that_uses_it(client: TestClient) -> None:
    assert client.post("/api/people", json={"name": "Zoé"}).status_code == 200
    assert client.post("/api/people", json={"name": "Zoé"}).status_code == 200  # the same browser, again
    other = another_browser(client)
    refused = other.post("/api/people", json={"name": "Zoé"})
    assert refused.status_code == 409 and "belongs to someone else" in refused.json()["message"]
    body = {"game": "neuf", "seats": me_and_bots(["S", "W", "E"], "S"), "name": "Zoé"}
    assert other.post("/api/tables", json=body).status_code == 409
    assert client.post("/api/tables", json=body).status_code == 201


def test_play_again_seats_everyone_who_accepts(client: TestClient) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "random"}}
    seated = create_table(client, "neuf", seats, name="Ann", options={"start_score": 1}, away_s=1, bot_delay_ms=0, clock_s=30,
                          public=True)
    table_id = seated["table"]["id"]
    bea = another_browser(client)
    friend = bea.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"], "name": "Bea"}).json()
    # nobody plays: with a clock the table goes on, stand-ins deciding for both (away after a second)
    with Socket(client, table_id) as watcher:
        over = watcher.receive_until(lambda m: m["type"] == "state" and m["table"]["status"] == "over", limit=100000)
    assert over["invite"] is None and over["table"]["again"] is None
    refused = client.post(f"/api/tables/{table_id}/again", json={"seat": "W", "token": seated["token"]})
    assert refused.status_code == 403
    ann = client.post(f"/api/tables/{table_id}/again", json={"seat": "S", "token": seated["token"]}).json()
    new_id = ann["table"]["id"]
    assert new_id != table_id and ann["seat"] == "S" and ann["token"]
    kinds = {s["seat"]: (s["kind"], s["name"]) for s in ann["table"]["seats"]}
    assert kinds == {"S": ("human", "Ann"), "W": ("open", None), "E": ("bot", "random")}
    assert ann["table"]["clock_s"] == 30 and ann["table"]["status"] == "waiting"
    # Bea is asked too; she declines, and her seat stays open for anyone invited
    old = client.get(f"/api/tables/{table_id}").json()
    assert old["again"] == {"table": new_id, "answers": {"S": "accepted", "W": "asked"}}
    # Bea's seat is not offered in the lobby before she answers (a public table's play again is listed after)
    assert new_id not in [t["id"] for t in client.get("/api/tables").json()]
    declined = bea.post(f"/api/tables/{table_id}/again", json={"seat": "W", "token": friend["token"], "accept": False}).json()
    assert declined["table"]["id"] == new_id and declined["token"] is None
    assert client.get(f"/api/tables/{table_id}").json()["again"]["answers"] == {"S": "accepted", "W": "declined"}
    assert client.get(f"/api/tables/{new_id}").json()["seats"][1]["kind"] == "open"
    assert new_id in [t["id"] for t in client.get("/api/tables").json()]


def test_play_again_over_the_socket_gives_a_one_time_url(client: TestClient, make_client: Callable[..., TestClient]) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Ann", options={"start_score": 1},
                          away_s=1, bot_delay_ms=0, clock_s=30)
    table_id = seated["table"]["id"]
    client.post(f"/api/tables/{table_id}/claim", json={"claim": claim_of(seated["url"])})
    with Socket(client, table_id) as watcher:
        watcher.receive_until(lambda m: m["type"] == "state" and m["table"]["status"] == "over", limit=100000)
    with Socket(client, table_id, cookies=True) as ann:
        state: dict[str, Any] = ann.next_state()
        assert state["you"] == "S"
        ann.send({"type": "again", "accept": True})
        reply = ann.receive_until(lambda m: m["type"] in ("again", "error"))
        assert reply["type"] == "again" and reply["url"].startswith(f"/neuf?t={reply['table']}&claim=S.")
    assert client.post(f"/api/tables/{reply['table']}/claim", json={"claim": claim_of(reply["url"])}).status_code == 200
    with Socket(client, reply["table"], cookies=True) as ann:
        state = ann.next_state()
        assert state["you"] == "S" and state["table"]["status"] == "playing"
    # the old table's replay shows what was hidden during play: the set-aside spare hand too
    replay = client.get(f"/api/tables/{table_id}/replay/1").json()
    dealt = replay["record"]["hands"]
    assert sorted(replay["frames"][0]["hands"]["centre"]) == sorted(dealt["spare"])
    assert all(sorted(replay["frames"][0]["hands"][s]) == sorted(dealt[s]) for s in ("S", "W", "E"))
