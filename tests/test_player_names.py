"""Computer players are named the same way in every command and at the web API, and a name that
is unknown, or belongs to a player of other games, is refused with the players the game has."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nines.bots import PLAYER_FACTORIES, UnknownPlayer, make_player, players_for
from nines.cli import app

runner = CliRunner()


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_every_player_name_is_checked_against_every_game(game):
    playable = players_for(game)
    assert {"random", "basic", "expert"} <= set(playable)
    for name in PLAYER_FACTORIES:
        if name in playable:
            assert make_player(name, game).name == name
        else:
            with pytest.raises(UnknownPlayer, match=f"does not play {game}; the players for {game} are: "):
                make_player(name, game)
    with pytest.raises(UnknownPlayer, match=f"unknown player 'wizard'; the players for {game} are: {', '.join(playable)}"):
        make_player("wizard", game)


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "rummy", "--players", "wizard"],
        ["simulate", "rummy", "--players", "basic,wizard"],
        ["tournament", "rummy", "--players", "wizard,basic", "--deals", "1"],
        ["play", "rummy", "--opponents", "wizard"],
        ["play", "rummy", "--players", "basic,wizard"],
    ],
)
def test_commands_refuse_an_unknown_player_naming_the_games_players(command):
    result = runner.invoke(app, command, input="quit\n")
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "'wizard'" in text and "the players for rummy are: random, basic" in text


def test_play_and_simulate_read_players_the_same_way():
    # a number: how many players (rummy)
    counted = runner.invoke(app, ["simulate", "rummy", "--players", "3", "--seed", "4", "--json"])
    assert counted.exit_code == 0, counted.output
    assert json.loads(counted.stdout)["seats"] == ["1", "2", "3"]
    # names: one per seat, and as many seats as names
    named = runner.invoke(app, ["simulate", "rummy", "--players", "basic,random,basic", "--seed", "4", "--json"])
    record = json.loads(named.stdout)
    assert record["seats"] == ["1", "2", "3"] and record["players"] == {"1": "basic", "2": "random", "3": "basic"}
    # in play the person at the keyboard takes a seat too
    played = runner.invoke(app, ["play", "rummy", "--players", "3", "--seed", "4"], input="quit\n")
    assert played.exit_code == 0 and "Match abandoned" in played.output
    assert "3 players" not in played.output  # no refusal
    opponents = runner.invoke(app, ["play", "rummy", "--players", "random,basic", "--seed", "4"], input="quit\n")
    assert opponents.exit_code == 0, opponents.output
    both = runner.invoke(app, ["play", "rummy", "--players", "random", "--opponents", "basic"], input="quit\n")
    assert both.exit_code == 2 and "name the computer players once" in " ".join(both.output.replace("│", " ").split())
    fixed = runner.invoke(app, ["simulate", "neuf", "--players", "4"])
    assert fixed.exit_code == 2 and "fixed by its form" in " ".join(fixed.output.replace("│", " ").split())


def test_the_web_api_refuses_an_unknown_player_naming_the_games_players(tmp_path):
    from starlette.testclient import TestClient

    from nines.server.app import create_app
    from nines.server.config import ServerConfig

    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'nines.db'}", bot_delay_ms=0, log_json=False, review_processes=False, thinking_processes=False)  # type: ignore[call-arg]
    with TestClient(create_app(config)) as client:
        seats = {"1": {"kind": "me"}, "2": {"kind": "bot", "bot": "wizard"}}
        response = client.post("/api/tables", json={"game": "rummy", "options": {"players": 2}, "seats": seats})
        assert response.status_code == 422
        message = response.json()["message"]
        assert "'wizard'" in message and ", ".join(players_for("rummy")) in message
