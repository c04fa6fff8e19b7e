"""The command line with rummy: simulate, replay, play in the terminal, and the renderings."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console
from rummy_helpers import position
from typer.testing import CliRunner

from nines.bots import make_player
from nines.bots.rummy_basic import RummyBasic
from nines.cli import app, terminal
from nines.cli.render import rummy as render
from nines.games import get_game
from nines.games.rummy import RummyOptions, RummyState

runner = CliRunner()


def text_of(renderable) -> str:
    console = Console(record=True, width=160, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_simulate_writes_a_record_that_replays(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "rummy", "-o", "players=3", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["game"] == "rummy" and record["seats"] == ["1", "2", "3"]
    assert record["options"]["players"] == 3 and len(record["deals"]) == 3
    assert record["winners"]
    path = tmp_path / "rummy.json"
    path.write_text(json.dumps(record))
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "3 deals replayed" in replayed.output and "Score sheet" in replayed.output


def test_simulate_with_named_players_and_a_preset() -> None:
    result = runner.invoke(
        app, ["simulate", "rummy", "-o", "players=5", "-p", "single-hand", "--players", "basic,random,basic,random,random"]
    )
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output


def test_play_in_the_terminal() -> None:
    moves = "help\ndraw stock\nsheet\nlay 2H 3H 4H\nquit\n"
    result = runner.invoke(app, ["play", "rummy", "--players", "3", "--seed", "4"], input=moves)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # the terminal wraps long lines
    assert "Nines rummy" in out and "Moves: 'draw stock'" in out
    assert "indicator" in out and "Your hand (1)" in out
    assert "Match abandoned" in out
    assert "nobody may lay, fill or swap until play comes back to the starter" in out  # the refused lay, explained


def test_a_whole_terminal_session_against_bots(monkeypatch) -> None:
    # the "human" at seat 1 types what a basic player would choose
    state = RummyState(RummyOptions(players=3, hands=2), seed=11)
    adviser = RummyBasic(random.Random(0))
    monkeypatch.setattr(terminal.Prompt, "ask", lambda *args, **kw: str(adviser.decide(state.view("1")).action))
    bots = {seat: make_player("basic", "rummy", random.Random(i)) for i, seat in enumerate(state.seats) if seat != "1"}
    console = Console(record=True, width=160, color_system=None)
    terminal.play_in_terminal(get_game("rummy"), state, "1", bots, console, 11)
    assert state.is_over
    out = console.export_text()
    assert "Deal 1 is over" in out and "Match over" in out and "Winner" in out
    assert "Table:" in out and "laid by" in out


def test_the_table_shows_each_wild_and_what_it_stands_for() -> None:
    state = position(
        {"1": "9H 2S 3S 4S QS", "2": "6C 7C 8C KD"},
        table=(("2", "7H 8H 5D=9H JK=TH"),),
        opened=("1",),
        stock="QD AS",
    )
    state.apply("draw stock")
    out = text_of(render.table(state.view("1")))
    assert "5♦→9♥" in out and "Jkr→10♥" in out and "laid by 2" in out and "takes 6♥ J♥" in out
    assert "fives and jokers are wild" in out and "Your hand (1)" in out and "drew Q♦ from the stock" in out
    state.apply("swap H 9H")
    assert "(held)" in text_of(render.table(state.view("1")))


def test_summary_and_sheet() -> None:
    state = RummyState(RummyOptions(players=3, hands=2), seed=2)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    out = text_of(render.summary(state))
    assert "Score sheet" in out and "Winner" in out
    assert all(seat in out for seat in state.seats)
