"""``nines solve``: the JSON contract, the readable table, and bad input (exit code 2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nines.cli.app import app

runner = CliRunner()
ELY_DEAL = "N:82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942"
NEUF3_DEAL = "S:J42.T43.84.A9863 A9876.AQJ.QT5.74 K53.98752.A9763.-"


def solve_json(*args: str) -> dict:
    result = runner.invoke(app, ["solve", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_elyigit_contract() -> None:
    out = solve_json("elyigit", "--deal", ELY_DEAL, "--trump", "S", "--leader", "N")
    assert set(out) == {"tricks"}
    assert set(out["tricks"]) == {"NS", "EW"}
    assert out["tricks"]["NS"] + out["tricks"]["EW"] == 9


def test_le_neuf_three_players_gives_every_paranoid_value() -> None:
    out = solve_json("neuf", "--deal", NEUF3_DEAL, "--trump", "S", "--leader", "W")
    assert list(out["tricks"]) == ["S", "W", "E"]
    assert sum(out["tricks"].values()) <= 13


def test_le_neuf_four_hands_partnerships_and_individual() -> None:
    deal = "N:AK.-.-.- QJ.-.-.- T9.-.-.- 87.-.-.-"
    assert solve_json("neuf", "--deal", deal, "--trump", "NT", "--leader", "E") == {"tricks": {"NS": 2, "EW": 0}}
    individual = solve_json("neuf", "--deal", deal, "--trump", "NT", "--leader", "E", "--form", "individual")
    assert individual == {"tricks": {"N": 2, "E": 0, "S": 0, "W": 0}}


def test_played_and_scores() -> None:
    deal = "N:2.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942"
    out = solve_json("elyigit", "--deal", deal, "--trump", "H", "--leader", "N", "--played", "8S", "--scores")
    # East follows: holding the 6 and 4 of spades, neither beats the 8, both may be played
    assert set(out["scores"]) == {"6S", "4S"}
    assert max(out["scores"].values()) == out["tricks"]["EW"]


def test_readable_output_is_a_table() -> None:
    result = runner.invoke(app, ["solve", "elyigit", "--deal", ELY_DEAL, "--trump", "NT", "--leader", "W", "--scores"])
    assert result.exit_code == 0, result.output
    assert "NS" in result.stdout and "EW" in result.stdout and "tricks" in result.stdout
    assert "W to play" in result.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["elyigit", "--deal", "N:82.8.753.763", "--trump", "S", "--leader", "N"], "hands"),
        (["elyigit", "--deal", ELY_DEAL, "--trump", "Z", "--leader", "N"], "not a trump"),
        (["elyigit", "--deal", ELY_DEAL, "--trump", "S", "--leader", "N", "--played", "6S"], "also in E's hand"),
        (["rummy", "--deal", ELY_DEAL, "--trump", "S", "--leader", "N"], "trick-taking"),
        (["neuf", "--deal", "N:K.-.-.- Q.Q.-.- J.J.-.- -.-.3.-", "--trump", "NT", "--leader", "W", "--played", "AS 2C"], "follow suit"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["solve", *args, "--json"])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = result.stderr.strip()
    assert words in message
    assert "Traceback" not in result.output
    assert len(message.splitlines()) == 1


def test_a_search_past_max_nodes_gives_up_with_exit_code_3() -> None:
    deal = "N:QJ632.KQ.Q53.Q95 74.9853.KT8.K874 AT85.AJ2.A76.AJ2 K9.T764.J942.T63"
    args = ["solve", "neuf", "--deal", deal, "--trump", "C", "--leader", "S", "--json"]
    result = runner.invoke(app, [*args, "--max-nodes", "1000"])
    assert result.exit_code == 3
    message = result.stderr.strip()
    assert "gave up after" in message and "--max-nodes" in message and len(message.splitlines()) == 1
    assert result.stdout == ""
    # a bound the search does not reach changes nothing
    assert json.loads(runner.invoke(app, [*args, "--max-nodes", "100000000"]).stdout) == {"tricks": {"NS": 9, "EW": 4}}

