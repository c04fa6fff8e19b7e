"""Fair deals at web tables: every table with people is dealt from a secret no view carries;
a chosen seed is for solo practice only, marked as such and left out of statistics."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from nines.games import get_game
from nines.randomness import MatchSecret
from nines.record import replay

from ..test_randomness import first_hand, seeds_that_deal
from .helpers import Socket, create_table, me_and_bots, pick, state_of, wait_for


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def test_a_table_with_an_open_seat_refuses_a_chosen_seed(client: TestClient) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}}
    response = client.post("/api/tables", json={"game": "neuf", "seats": seats, "seed": 5})
    assert response.status_code == 422
    assert "solo practice" in response.json()["message"]
    assert client.get("/api/tables").json() == []  # nothing was created


def test_a_seated_player_cannot_find_the_deal_from_their_own_cards(client: TestClient) -> None:
    """The brute-force search that found the old 31-bit seeds (shown on a reduced space in
    test_randomness) finds nothing from a seat's view of the first deal at a web table."""
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), bot_delay_ms=5000)
    view = state_of(client, seated["table"]["id"], "S", seated["token"])["view"]
    options = get_game("neuf").options_from_record(seated["table"]["options"])
    assert seeds_that_deal("neuf", options, "S", sorted(view["hand"]), range(1500)) == []
    stored = client.app.state.store.load_table(seated["table"]["id"])  # type: ignore[attr-defined]
    assert stored.seed is None and stored.secret is not None and len(stored.secret) == 64


def test_no_view_info_or_listing_carries_the_seed_or_the_secret(client: TestClient) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "open"}, "E": {"kind": "bot", "bot": "basic"}}
    seated = create_table(client, "neuf", seats, bot_delay_ms=5000)
    table_id = seated["table"]["id"]
    friend = client.post(f"/api/tables/{table_id}/join", json={"seat": "W", "invite": seated["invite"]}).json()
    secret = client.app.state.store.load_table(table_id).secret  # type: ignore[attr-defined]
    seen: list[Any] = [seated, friend, client.get(f"/api/tables/{table_id}").json(), client.get("/api/tables").json(),
                       state_of(client, table_id), state_of(client, table_id, "S", seated["token"]),
                       state_of(client, table_id, "W", friend["token"])]
    with Socket(client, table_id, "S", seated["token"]) as sock, Socket(client, table_id) as watcher:
        seen += [sock.next_state(), watcher.next_state()]
    record = client.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 403  # the record of an unfinished match is not given (it holds every hand)
    seen.append(record.json())
    for message in seen:
        assert not {"seed", "secret"} & keys_in(message), message
        assert secret not in json.dumps(message)
    assert seated["table"]["practice"] is False


def test_the_finished_record_reveals_the_secret_and_replays(client: TestClient, tmp_path: Path) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], None), options={"start_score": 1})
    table_id = seated["table"]["id"]
    wait_for(client, table_id, lambda s: s["table"]["status"] == "over")
    record = client.get(f"/api/tables/{table_id}/record").json()
    stored = client.app.state.store.load_table(table_id)  # type: ignore[attr-defined]
    assert record["seed"] is None and record["secret"] == stored.secret
    assert replay(record).winners == record["winners"]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    src = Path(__file__).parents[2] / "src"
    done = subprocess.run([sys.executable, "-m", "nines.cli", "replay", str(path)], check=False, capture_output=True, text=True,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "COLUMNS": "200"}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout


def test_solo_practice_deals_from_the_chosen_seed_and_is_not_counted(client: TestClient) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"), name="Pia", options={"start_score": 1}, seed=42)
    table_id, token = seated["table"]["id"], seated["token"]
    assert seated["table"]["practice"] is True
    assert "seed" not in seated["table"]
    options = get_game("neuf").options_from_record(seated["table"]["options"])
    view = state_of(client, table_id, "S", token)["view"]
    assert sorted(view["hand"]) == first_hand("neuf", options, 42, "S")
    with Socket(client, table_id, "S", token) as sock:
        while True:
            state = sock.my_turn()
            if state["table"]["status"] == "over":
                break
            sock.send({"type": "act", "seq": state["seq"], "action": pick(state)})
    assert client.get("/api/people/Pia/stats").json()["games"] == {}
    assert client.get(f"/api/tables/{table_id}/record").json()["seed"] == 42


def test_computer_players_at_a_secret_table_draw_from_the_secret(client: TestClient) -> None:
    """A computer player's own choices come from the hidden secret, not from anything a view shows."""
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S", bot="random"), bot_delay_ms=5000)
    table_id = seated["table"]["id"]
    player = client.app.state.manager.tables[table_id].seats["W"].player  # type: ignore[attr-defined]
    secret = MatchSecret.from_hex(client.app.state.store.load_table(table_id).secret)  # type: ignore[attr-defined]
    assert player._rng.getstate() == random.Random(secret.derive("player:W:random")).getstate()
