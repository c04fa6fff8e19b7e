"""The nines command for Le Neuf: simulate, replay, play in the terminal, presets."""

import json

from typer.testing import CliRunner

from nines.cli import app

runner = CliRunner()


def test_help_names_every_command():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "simulate", "replay", "presets"):
        assert command in result.stdout


def test_simulate_writes_a_record_in_the_design_format():
    result = runner.invoke(app, ["simulate", "neuf", "--seed", "7", "--json", "--players", "basic,random,random"])
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["format"] == "nines-record/1" and record["game"] == "neuf" and record["seed"] == 7
    assert record["seats"] == ["S", "W", "E"] and record["players"] == {"S": "basic", "W": "random", "E": "random"}
    deal = record["deals"][0]
    assert set(deal["hands"]) == {"S", "W", "E", "spare"} and deal["trump"] == "H"
    assert {"seat", "action"} <= set(deal["actions"][0])
    assert record["winners"]


def test_simulate_accepts_presets_and_options_and_refuses_unknown_ones():
    ok = runner.invoke(app, ["simulate", "neuf", "--json", "-p", "spades-first", "-o", "instant_win=yes"])
    assert ok.exit_code == 0
    options = json.loads(ok.stdout)["options"]
    assert options["trump_cycle"] == ["S", "H", "D", "C", "NT"] and options["instant_win"] is True
    bad = runner.invoke(app, ["simulate", "neuf", "-o", "colour=blue"])
    assert bad.exit_code == 2 and "unknown option colour" in bad.output
    bad = runner.invoke(app, ["simulate", "neuf", "-p", "nope"])
    assert bad.exit_code == 2 and "unknown preset" in bad.output
    bad = runner.invoke(app, ["simulate", "neuf", "--players", "basic,wizard,random"])
    assert bad.exit_code == 2 and "unknown player" in bad.output


def test_replay_checks_a_record_and_reports_tampering(tmp_path):
    record = json.loads(runner.invoke(app, ["simulate", "neuf", "--seed", "3", "--json"]).stdout)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(good)])
    assert result.exit_code == 0 and "ok" in result.stdout
    record["deals"][0]["result"]["tricks"]["S"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "differ" in result.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    assert runner.invoke(app, ["replay", str(broken)]).exit_code == 1


def test_play_in_the_terminal_survives_typos_and_illegal_cards():
    # S is the human; seed 5, W deals... S answers every prompt with junk first, then a legal move
    moves = []
    for _ in range(400):
        moves += ["bid 3", "ZZ", "help", "sheet", "last"]
    result = runner.invoke(app, ["play", "neuf", "--seed", "5"], input="\n".join(moves[:40]) + "\nquit\n")
    assert result.exit_code == 0, result.output
    # every junk line is refused with the reason and the prompt comes back: no traceback, the state unchanged
    assert "Traceback" not in result.output
    assert "'bid 3' is not a Le Neuf move" in result.output and "'ZZ' is not a Le Neuf move" in result.output
    assert result.output.count("is not a Le Neuf move") == 16  # 8 rounds of 'bid 3' and 'ZZ'
    assert "Score sheet" in result.output
    assert "Traceback" not in result.output
    assert "Score sheet" in result.output and "Match abandoned" in result.output


def test_play_a_whole_match_by_always_taking_the_first_legal_move():
    from nines.games.neuf import NeufState

    state = NeufState(seed=12)
    # what a person would type: the first legal move each time (computed on a twin state)
    result = runner.invoke(app, ["play", "neuf", "--seed", "12", "--opponents", "random"], input=_first_moves(state))
    assert result.exit_code == 0, result.output[-2000:]
    assert "Match over" in result.output and "Winner" in result.output


def _first_moves(state) -> str:
    import random

    from nines.bots import make_player

    rng = random.Random(12)
    bots = {s: make_player("random", "neuf", random.Random(rng.random())) for s in ("W", "E")}
    typed = []
    while not state.is_over:
        if state.acting_seat == "S":
            move = state.legal_actions()[0]
            typed.append(str(move))
            state.apply(move)
        else:
            seat = state.acting_seat
            state.apply(bots[seat].decide(state.view(seat)).action)
    return "\n".join(typed) + "\n"
