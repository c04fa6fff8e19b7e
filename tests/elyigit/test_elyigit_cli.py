"""The nines command for Elyigit's Nines: simulate, replay, play in the terminal, presets."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nines.bots.elyigit_basic import ElyigitBasic
from nines.cli import app
from nines.games.elyigit import ElyigitState

runner = CliRunner()


def test_simulate_writes_a_record_that_replays(tmp_path):
    result = runner.invoke(app, ["simulate", "elyigit", "--seed", "3", "--json", "--players", "basic,random,basic,random"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["format"] == "nines-record/1" and record["game"] == "elyigit" and record["seed"] == 3
    assert record["seats"] == ["N", "E", "S", "W"]
    assert record["players"] == {"N": "basic", "E": "random", "S": "basic", "W": "random"}
    deal = record["deals"][0]
    assert set(deal["hands"]) == {"N", "E", "S", "W"} and all(len(h) == 9 for h in deal["hands"].values())
    kinds = {entry["action"] for entry in deal["actions"]}
    assert {"bid", "trump", "play"} <= kinds
    assert record["winners"] in (["NS"], ["EW"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "ok" in replayed.stdout
    record["deals"][0]["result"]["score_change"]["NS"] += 1
    path.write_text(json.dumps(record))
    tampered = runner.invoke(app, ["replay", str(path)])
    assert tampered.exit_code == 1 and "differ" in tampered.stdout


def test_simulate_summary_and_presets():
    result = runner.invoke(app, ["simulate", "elyigit", "--seed", "2", "-p", "play-out", "-o", "target=20"])
    assert result.exit_code == 0, result.output
    assert "Score sheet" in result.output and "Winners" in result.output
    listed = runner.invoke(app, ["presets", "elyigit"])
    assert listed.exit_code == 0
    for name in ("standard", "play-out", "partner-exemption", "follow-suit", "forced-dealer"):
        assert name in listed.output
    bad = runner.invoke(app, ["simulate", "elyigit", "-o", "must_trump=no"])
    assert bad.exit_code == 2 and "must_trump=false" in bad.output


def _typed_moves(seed: int, me: str, bid: bool) -> tuple[str, ElyigitState]:
    """What a person at ``me`` types, computed on a twin of the match the command plays
    (basic opponents are deterministic): junk first, then a legal move."""
    state = ElyigitState(seed=seed)
    bots = {seat: ElyigitBasic() for seat in state.seats if seat != me}
    typed = ["bid 12", "nonsense", "sheet", "last", "help"]
    while not state.is_over:
        seat = state.acting_seat
        if seat == me:
            legal = state.legal_actions()
            move = legal[0] if (bid or state.deal.phase != "auction") else legal[-1]
            if state.deal.phase == "play":
                typed.append("play 9Z")
            typed.append(str(move))
            state.apply(move)
        else:
            state.apply(bots[seat].decide(state.view(seat)).action)
    return "\n".join(typed) + "\n", state


def test_play_a_whole_match_as_declarer_playing_the_dummy():
    typed, twin = _typed_moves(21, "N", bid=True)
    result = runner.invoke(app, ["play", "elyigit", "--seed", "21", "--seat", "N"], input=typed)
    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    assert "you play it now" in result.output  # N declared and played the dummy S
    assert "Match over" in result.output and f"Winners: {twin.winners[0]}" in result.output


def test_play_a_whole_match_passing_as_defender_and_dummy():
    typed, twin = _typed_moves(8, "E", bid=False)
    result = runner.invoke(app, ["play", "elyigit", "--seed", "8", "--seat", "E"], input=typed)
    assert result.exit_code == 0, result.output[-3000:]
    assert "Dummy (" in result.output and "Match over" in result.output
    # the twin typed nothing for E's cards while E was the dummy: W (a computer
    # player) played them, and the match still ran to its end as the twin's did
    contracts = [d.contract for d in twin.deals if d.contract is not None]
    assert any(c.dummy == "E" for c in contracts), "this seed should make E the dummy at least once"
    assert any(c.declarer in ("N", "S") for c in contracts), "and a defender at least once"
    assert f"Winners: {twin.winners[0]}" in result.output


def test_quitting_abandons_the_match():
    result = runner.invoke(app, ["play", "elyigit", "--seed", "4", "--seat", "S"], input="quit\n")
    assert result.exit_code == 0 and "Match abandoned" in result.output
