"""``nines ratings GAME``: anchor matches among computer players, and the leaderboard printed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from nines.cli import app
from nines.ratings import Skill
from nines.ratings.anchor import anchor_matches, line_ups
from nines.server.store.database import Store
from nines.server.store.standing import Standing


def test_line_ups_turn_and_partnerships_are_one_player_a_side() -> None:
    first = list(zip(range(3), line_ups("neuf", ["a", "b", "c"], ["S", "W", "E"]), strict=False))
    assert [u for _, u in first] == [["a", "b", "c"], ["a", "c", "b"], ["b", "a", "c"]]
    assert next(line_ups("elyigit", ["a", "b"], ["N", "E", "S", "W"])) == ["a", "b", "a", "b"]


def test_anchor_matches_rank_computer_players_at_every_seat() -> None:
    matches = list(anchor_matches("rummy", 2, players=("random", "basic", "ismcts", "expert")))
    assert len(matches) == 2
    assert all(p.computer for m in matches for p in m.participants)
    assert sorted(matches[0].ranks) == ["1", "2", "3", "4"]


def test_the_leaderboard_in_the_terminal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nines.db'}"
    store = Store(url)
    store.migrate()
    Standing(store).record_ratings("neuf", "t1", {}, {"ann": Skill(30.0, 3.0, 40), "newbie": Skill(40.0, 8.0, 1)})
    store.close()
    runner = CliRunner()
    result = runner.invoke(app, ["ratings", "neuf", "--database-url", url, "--anchor", "2", "--anchor-players", "random,basic"])
    assert result.exit_code == 0, result.output
    assert "ann" in result.output and "newbie" not in result.output and "computer" in result.output
    rows = json.loads(runner.invoke(app, ["ratings", "neuf", "--database-url", url, "--json"]).output)
    assert {r["name"] for r in rows} == {"ann", "random", "basic"}
    assert [r["name"] for r in rows if not r["computer"]] == ["ann"] and rows[0]["rating"] >= rows[-1]["rating"]
    assert runner.invoke(app, ["ratings", "chess", "--database-url", url]).exit_code != 0
