"""The daily challenge and ratings through the real app: the same table all day, the same answers to the same
moves, secret until played, standings; a finished match rated (not casual, not practice), the leaderboard."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import create_table, me_and_bots, pick, state_of

DAY = dt.date(2026, 12, 7)
KEY = b"challenge-key-for-tests-32-bytes"


def _app(make_client: Callable[..., TestClient], day: dt.date = DAY) -> TestClient:
    return make_client(today=lambda: day, challenge_key=KEY, challenge_bot="basic")


def _play_to_the_end(client: TestClient, table: str, seat: str, token: str) -> dict[str, Any]:
    """The person's seat played with ``pick`` (chosen from the state's sequence number: the same moves for the
    same states) until the match is over."""
    for _ in range(5000):
        state = state_of(client, table, seat, token)
        if state["table"]["status"] == "over":
            return state
        if state["view"].get("legal") and state["view"].get("to_act") == seat:
            response = client.post(f"/api/tables/{table}/actions",
                                   json={"seat": seat, "token": token, "seq": state["seq"], "action": pick(state)})
            assert response.status_code in (200, 409), response.text
    raise AssertionError("the match did not end")


@pytest.mark.databases
def test_a_challenge_is_one_table_a_day_fair_secret_until_played_and_ranked(make_client: Callable[..., TestClient]) -> None:
    with _app(make_client) as client:
        first = client.post("/api/challenge/rummy", json={"name": "ann"})
        assert first.status_code == 200, first.text
        ann = first.json()
        assert ann["day"] == "2026-12-07" and ann["seat"] == "1" and ann["token"] and ann["url"]
        again = client.post("/api/challenge/rummy", json={"name": "ann"}).json()
        assert again["table"]["id"] == ann["table"]["id"] and again["token"] != ann["token"]
        table, token = ann["table"]["id"], again["token"]
        assert state_of(client, table, "1", token)["view"]["deal_number"] == 1
        # not in the lobby, nobody watches, and nothing of it is served to someone who has not played the day
        assert table not in {t["id"] for t in client.get("/api/tables").json()}
        assert client.get(f"/api/tables/{table}/state").status_code == 403
        with client.websocket_connect(f"/ws/tables/{table}", headers={"cookie": "nines_spectator=1"}) as ws:
            ws.send_json({"type": "hello"})
            refusal = ws.receive_json()
            assert refusal["type"] == "error" and refusal["key"] == "server.challenge_secret"
        ann_state = _play_to_the_end(client, table, "1", token)
        # her finished entry shows at once (the standings kept are worked out again when an entry finishes)
        assert [s["name"] for s in client.get("/api/challenge/rummy/2026-12-07").json()] == ["ann"]
        assert client.get(f"/api/tables/{table}/replay/1", params={"name": "ann"}).status_code == 200  # her own table
        assert ann_state["view"]["deal_number"] == 3
        client.post("/api/people", json={"name": "bob"})
        assert [s["name"] for s in client.get("/api/challenge/rummy/2026-12-07").json()] == ["ann"]
        for path in (f"/api/tables/{table}/record", f"/api/tables/{table}/replay/1", f"/api/tables/{table}/review/1"):
            assert client.get(path, params={"name": "bob"}).status_code == 403, path
        assert client.get("/api/challenge/rummy/2026-12-07/deals", params={"name": "bob"}).json()["closed"]
        # the person themselves, once finished: their record (by their seat's token)
        own = client.get(f"/api/tables/{table}/record", headers={"X-Nines-Seat": "1", "X-Nines-Token": token})
        assert own.status_code == 200 and own.json()["deal_limit"] == 3
        # bob plays the same moves: the same answers, the same result (duplicate fairness)
        bob = client.post("/api/challenge/rummy", json={"name": "bob"}).json()
        assert bob["table"]["id"] != table
        bob_state = _play_to_the_end(client, bob["table"]["id"], "1", bob["token"])
        assert bob_state["view"]["deal_number"] == 3
        # having played the day, bob may watch ann's table (the standings link to the best result's play); dee, who holds
        # her name but has not played, may not (the page's hello names the browser's name; its cookie proves it)
        client.post("/api/people", json={"name": "dee"})
        for who, allowed in (("bob", True), ("dee", False)):
            with client.websocket_connect(f"/ws/tables/{table}") as ws:
                ws.send_json({"type": "hello", "name": who})
                answer = ws.receive_json()
                assert (answer["type"] == "state") == allowed, (who, answer)
                if not allowed:
                    assert answer["key"] == "server.challenge_secret"
            seen = client.get(f"/api/tables/{table}/state", params={"name": who})
            assert seen.status_code == (200 if allowed else 403), (who, seen.text)
        bob_record = client.get(f"/api/tables/{bob['table']['id']}/record", params={"name": "bob"}).json()
        ann_record = client.get(f"/api/tables/{table}/record", params={"name": "bob"}).json()  # bob has played: open
        assert [d["actions"] for d in bob_record["deals"]] == [d["actions"] for d in ann_record["deals"]]
        standings = client.get("/api/challenge/rummy/2026-12-07").json()
        assert sorted(s["name"] for s in standings) == ["ann", "bob"]
        assert all(s["percent"] == 50.0 and len(s["deals"]) == 3 for s in standings)  # equal results tie
        deals = client.get("/api/challenge/rummy/2026-12-07/deals", params={"name": "bob"}).json()
        assert deals["entries"] == 2 and deals["deals"][0]["place"] == 1 and len(deals["deals"][0]["results"]) == 2
        profile = client.get("/api/people/ann/profile").json()
        assert profile["challenges"][0]["finished"] and profile["challenges"][0]["percent"] == 50.0
    # the next day: a new challenge, and yesterday's tables open to all
    with _app(make_client, DAY + dt.timedelta(days=1)) as client:
        assert client.get(f"/api/tables/{table}/record").status_code == 200
        cy = client.post("/api/challenge/rummy", json={"name": "cy"}).json()
        assert cy["day"] == "2026-12-08" and cy["table"]["id"] != table
        assert client.get("/api/challenge/rummy/2026-12-07").json()[0]["percent"] == 50.0


def test_the_challenge_requests_are_checked(make_client: Callable[..., TestClient]) -> None:
    with _app(make_client) as client:
        assert client.post("/api/challenge/chess", json={"name": "ann"}).status_code == 404
        assert client.post("/api/challenge/rummy", json={}).status_code == 422
        assert client.get("/api/challenge/rummy/yesterday").status_code == 422
        assert client.get("/api/challenge/rummy/today").json() == []


@pytest.mark.databases
def test_a_finished_match_is_rated_unless_casual_or_practice(make_client: Callable[..., TestClient]) -> None:
    with _app(make_client) as client:
        tables = {}
        for kind, extra in (("rated", {}), ("casual", {"casual": True}), ("practice", {"seed": 5})):
            made = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name=f"p-{kind}",
                                options={"start_score": 1}, **extra)
            tables[kind] = made["table"]["id"]
            _play_to_the_end(client, made["table"]["id"], "S", made["token"])
        changes = client.get(f"/api/tables/{tables['rated']}/ratings").json()
        assert [c["name"] for c in changes] == ["p-rated"] and changes[0]["provisional"]
        assert changes[0]["rating"] == 1500 + changes[0]["change"]
        assert client.get(f"/api/tables/{tables['casual']}/ratings").json() == []
        assert client.get(f"/api/tables/{tables['practice']}/ratings").json() == []
        profile = client.get("/api/people/p-rated/profile").json()
        assert profile["ratings"]["neuf"]["matches"] == 1 and profile["matches"][0]["url"] == f"/neuf?t={tables['rated']}"
        assert set(profile) == {"name", "ratings", "history", "matches", "challenges", "review"}
        assert client.get("/api/ratings/neuf").json() == []  # one match: provisional, and computer players unrated
        chart = client.get("/api/people/p-rated/chart.svg")
        assert chart.status_code == 200 and chart.text.lstrip().startswith("<?xml") and "<svg" in chart.text
        assert client.get("/api/ratings/chess").status_code == 404


def test_computer_players_thinking_in_worker_processes_answer_as_in_threads(make_client: Callable[..., TestClient]) -> None:
    """``nines serve`` has its computer players think in worker processes (``thinking_processes``): a practice
    table of the same seed, the same moves of the person, and the computer players answer as they do in the
    server's threads, decision after decision (each travels to a worker with its state and comes back with it)."""
    seen: list[list[Any]] = []
    for processes in (False, True):
        views: list[Any] = []
        with make_client(thinking_processes=processes) as client:
            made = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S", "ismcts"), seed=5)
            table, seat, token = made["table"]["id"], made["seat"], made["token"]
            deadline = time.monotonic() + 120
            while len(views) < 10:
                assert time.monotonic() < deadline, f"only {len(views)} turns came"
                state = state_of(client, table, seat, token)
                if state["view"].get("legal") and state["view"].get("to_act") == seat:
                    views.append(state["view"])
                    client.post(f"/api/tables/{table}/actions",
                                json={"seat": seat, "token": token, "seq": state["seq"], "action": pick(state)})
                else:
                    time.sleep(0.02)  # the computer players think
        seen.append(views)
    assert seen[0] == seen[1]
