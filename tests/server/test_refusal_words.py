"""The refusals of a table's life a person meets (a seat taken, a name someone else owns, a used link, a bad
invitation, a spectator acting, a name the server will not show) each carry their own message key and the
parameters its sentence needs, in English and French: not the bare code, whose one sentence cannot say them all
(``server.conflict`` said "That seat has already been taken" to a person whose name was taken)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.testclient import TestClient

from .helpers import Socket, another_browser, create_table, me_and_bots

TABLE = json.loads((Path(__file__).resolve().parents[2] / "src" / "nines" / "web" / "static" / "refusals.json").read_text(encoding="utf-8"))


def sayable(body: dict[str, Any], key: str) -> None:
    """The refusal has this key, and each language's sentence finds every parameter it names."""
    assert body["key"] == key, body
    for lang in ("en", "fr"):
        needed = set(re.findall(r"\{(\w+)\}", TABLE[lang][key]))
        assert needed <= set(body["params"]), f"{key}: the {lang} sentence needs {needed - set(body['params'])}"


def test_the_refusals_of_seats_names_and_links_say_which(client: TestClient) -> None:
    seats = {"N": {"kind": "me"}, "E": {"kind": "open"}, "S": {"kind": "open"}, "W": {"kind": "bot", "bot": "basic"}}
    seated = create_table(client, "elyigit", seats, name="Ann")
    table_id = seated["table"]["id"]
    join = f"/api/tables/{table_id}/join"
    assert client.post(join, json={"seat": "E", "invite": seated["invite"]}).status_code == 200
    late = another_browser(client)
    taken = late.post(join, json={"seat": "E", "invite": seated["invite"]})
    assert taken.status_code == 409
    sayable(taken.json(), "server.seat_taken_open")
    assert taken.json()["params"] == {"seat": "E", "seats": ["S"]}
    sayable(late.post(join, json={"seat": "Q", "invite": seated["invite"]}).json(), "server.no_seat")
    sayable(late.post(join, json={"seat": "S", "invite": "not-the-invitation"}).json(), "server.invite_invalid")
    # the name Ann is the first browser's
    owned = late.post("/api/people", json={"name": "Ann"})
    assert owned.status_code == 409
    sayable(owned.json(), "server.name_owned")
    assert owned.json()["params"] == {"name": "Ann"}
    sayable(late.post(join, json={"seat": "S", "invite": seated["invite"], "name": "Ann"}).json(), "server.name_owned")
    # a name the server will not show, and why
    sayable(late.post("/api/people", json={"name": "<b>"}).json(), "name.angle")
    sayable(late.post("/api/people", json={"name": "a\u202eb"}).json(), "name.reorder")
    # a one-time link spent by another browser
    claim = parse_qs(urlsplit(seated["url"]).query)["claim"][0]
    assert client.post(f"/api/tables/{table_id}/claim", json={"claim": claim}).status_code == 200
    used = late.post(f"/api/tables/{table_id}/claim", json={"claim": claim})
    sayable(used.json(), "server.claim_used_open")
    sayable(late.post(f"/api/tables/{table_id}/claim", json={"claim": "Z.nothing"}).json(), "server.claim_invalid")
    sayable(late.get("/api/tables/no-such-table").json(), "server.no_table")
    sayable(late.get(f"/api/tables/{table_id}/replay/1").json(), "server.replay_after")


def test_a_spectator_and_a_stranger_are_told_why(client: TestClient) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"))
    table_id = seated["table"]["id"]
    with Socket(client, table_id) as watcher:
        state = watcher.next_state()
        watcher.send({"type": "act", "seq": state["seq"], "action": "keep"})
        sayable(watcher.receive_until(lambda m: m["type"] == "error"), "server.spectator")
        watcher.send({"type": "hint", "seq": state["seq"]})
        sayable(watcher.receive_until(lambda m: m["type"] == "error"), "server.hints_players")
        watcher.send({"type": "pace", "seq": state["seq"], "delay_ms": 100})
        sayable(watcher.receive_until(lambda m: m["type"] == "error"), "server.pace_players")
    with Socket(client, table_id, "S", "not-the-token") as stranger:
        sayable(stranger.receive_until(lambda m: m["type"] == "error"), "server.own_token")
