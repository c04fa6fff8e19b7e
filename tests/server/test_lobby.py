"""The lobby over HTTP: health, games, creating, listing and joining tables, people."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from .helpers import create_table, me_and_bots, state_of


def test_health_reports_database_and_pubsub(client: TestClient) -> None:
    body = client.get("/health").json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["pubsub"] == "local"


def test_games_describe_presets_options_players_and_seats(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {"neuf", "elyigit", "rummy"} <= set(games)
    neuf = games["neuf"]
    assert neuf["seats"] == ["S", "W", "E"]
    assert "newfoundland-partners" in neuf["presets"]
    trump_cycle = next(o for o in neuf["options"] if o["name"] == "trump_cycle")
    assert trump_cycle["kind"] == "list" and trump_cycle["default"] == ["H", "D", "C", "S", "NT"]
    assert "Trump of each deal" in trump_cycle["doc"]
    assert {"random", "basic"} <= set(neuf["players"])
    assert games["rummy"]["seats"] == ["1", "2", "3", "4"]


def test_resolve_gives_the_seats_of_a_preset_and_refuses_bad_options(client: TestClient) -> None:
    four = client.post("/api/games/neuf/resolve", json={"preset": "newfoundland-partners"}).json()
    assert four["seats"] == ["N", "E", "S", "W"]
    six = client.post("/api/games/rummy/resolve", json={"options": {"players": 6}}).json()
    assert six["seats"] == [str(i) for i in range(1, 7)]
    bad = client.post("/api/games/neuf/resolve", json={"options": {"quota": 5}})
    assert bad.status_code == 422 and bad.json()["code"] == "malformed"


def test_creating_a_table_checks_game_options_seats_and_players(client: TestClient) -> None:
    seats = me_and_bots(["S", "W", "E"], "S")
    cases = [
        ({"game": "chess", "seats": seats}, "unknown game"),
        ({"game": "neuf", "preset": "nope", "seats": seats}, "unknown preset"),
        ({"game": "neuf", "options": {"colour": "red"}, "seats": seats}, "unknown option"),
        ({"game": "neuf", "seats": {"S": {"kind": "me"}}}, "say who sits in each seat"),
        ({"game": "neuf", "seats": {**seats, "W": {"kind": "me"}}}, "one seat"),
        ({"game": "neuf", "seats": {**seats, "W": {"kind": "bot", "bot": "wizard"}}}, "not a computer player"),
        ({"game": "neuf", "seats": seats, "surprise": 1}, "extra"),
    ]
    for body, words in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, body
        assert response.json()["code"] == "malformed"
        assert words.lower() in response.json()["message"].lower(), response.json()["message"]
    assert client.get("/api/tables").json() == []


def test_a_created_table_gives_its_creator_a_seat_token_and_lists_open_seats(client: TestClient) -> None:
    seated = create_table(client, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}},
                          name="Ann", public=True)
    table = seated["table"]
    assert seated["seat"] == "S" and len(seated["token"]) >= 24
    assert table["status"] == "waiting"
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert listed[0]["invite"] == seated["invite"]
    kinds = {s["seat"]: (s["kind"], s["name"]) for s in listed[0]["seats"]}
    assert kinds == {"S": ("human", "Ann"), "W": ("open", None), "E": ("bot", "basic")}
    # a private table is not listed, and tables are private unless made public
    create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), public=False)
    create_table(client, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}})
    assert len(client.get("/api/tables").json()) == 1


@pytest.mark.databases
def test_joining_needs_the_invitation_and_an_open_seat(client: TestClient) -> None:
    seated = create_table(client, "neuf", {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}})
    table_id = seated["table"]["id"]
    wrong = client.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": "not-the-code"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "forbidden"
    taken = client.post(f"/api/tables/{table_id}/join", json={"seat": "E", "invite": seated["invite"]})
    assert taken.status_code == 409 and taken.json()["code"] == "conflict"
    missing = client.post(f"/api/tables/{table_id}/join", json={"seat": "N", "invite": seated["invite"]})
    assert missing.status_code == 404
    friend = client.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"], "name": "Bea"})
    assert friend.status_code == 200
    assert friend.json()["seat"] == "W" and friend.json()["token"] != seated["token"]
    assert friend.json()["table"]["status"] == "playing"
    again = client.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"]})
    assert again.status_code == 409
    # the friend's token opens the friend's seat, and only it
    view = state_of(client, table_id, "W", friend.json()["token"])["view"]
    assert view["seat"] == "W" and len(view["hand"]) == 13


def test_unknown_tables_and_pages(client: TestClient) -> None:
    assert client.get("/api/tables/nothing").status_code == 404
    assert client.get("/nothing-here").status_code == 404
    for path in ("/", "/neuf", "/elyigit", "/rummy", "/stats"):
        page = client.get(path)
        assert page.status_code == 200 and "<script type=\"module\"" in page.text, path
    assert client.get("/static/js/table.js").status_code == 200


@pytest.mark.databases
def test_people_are_remembered_by_name(client: TestClient) -> None:
    assert client.get("/api/people/Zoé/stats").json() == {"name": "Zoé", "known": False, "games": {}}
    assert client.post("/api/people", json={"name": "Zoé"}).status_code == 200
    assert client.get("/api/people/Zoé/stats").json()["known"] is True
    assert client.post("/api/people", json={"name": "<script>"}).status_code == 422


def test_the_lobby_lists_each_table_as_its_model_says(client: TestClient) -> None:
    """The listing is built as plain data (not through the models, which were most of its cost): each entry,
    for a table in memory and for one only in the database, is its model's dump plus the invitation."""
    from nines.server.wire.messages import TableInfo

    seats = {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}}
    live = create_table(client, "neuf", seats, name="Ann", public=True)
    stored = create_table(client, "rummy", {"1": {"kind": "me"}, "2": {"kind": "open"}}, options={"players": 2}, public=True)
    manager = client.app.state.manager
    del manager.tables[stored["table"]["id"]]  # as after a restart: listed from the database
    listed = {t["id"]: t for t in client.get("/api/tables").json()}
    assert set(listed) == {live["table"]["id"], stored["table"]["id"]}
    for entry in listed.values():
        body = {k: v for k, v in entry.items() if k != "invite"}
        assert TableInfo.model_validate(body).model_dump(mode="json") == body
        assert list(body) == list(TableInfo.model_fields)
    assert listed[stored["table"]["id"]]["paused"] is True and listed[stored["table"]["id"]]["invite"] == stored["invite"]
    assert listed[live["table"]["id"]]["seats"][0]["name"] == "Ann"
