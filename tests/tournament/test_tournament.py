"""Duplicate tournaments: scheduling, reproducibility, the numbers reported, the command."""

import json

import pytest
from typer.testing import CliRunner

from nines.bots import PLAYER_FACTORIES
from nines.cli.app import app
from nines.tournament import GameSetup, TournamentConfig, run, seatings, summarise
from nines.tournament.oracle import ORACLE_FACTORIES
from nines.tournament.runner import distinct_deals


def test_seatings_rotate_each_player_through_each_seat():
    assert seatings(("expert", "basic", "basic")) == [
        ("expert", "basic", "basic"),
        ("basic", "expert", "basic"),
        ("basic", "basic", "expert"),
    ]
    # partnerships: the pair sits N-S, then E-W
    assert seatings(("a", "b", "a", "b")) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert seatings(("a", "b")) == [("a", "b"), ("b", "a")]


def _numbers(summary):
    document = summary.to_dict()
    for player in document["players"]:
        player.pop("time_s")
    return document


def test_same_seed_same_numbers_whatever_the_number_of_workers():
    config = TournamentConfig(GameSetup("neuf"), ("basic", "random", "random"), deals=25, seed=9, workers=1)
    one = summarise(run(config))
    two = summarise(run(TournamentConfig(config.setup, config.lineup, 25, 9, workers=2)))
    assert _numbers(one) == _numbers(two)
    other = summarise(run(TournamentConfig(config.setup, config.lineup, 25, 10, workers=1)))
    assert _numbers(other) != _numbers(one)


def test_the_shortest_run_of_whole_matches_reaching_the_deals_is_kept():
    raw = run(TournamentConfig(GameSetup("neuf"), ("basic", "basic", "random"), deals=30, seed=4))
    per_match = [distinct_deals(jobs) for jobs in raw.matches]
    assert sum(per_match) >= 30 and sum(per_match[:-1]) < 30
    for jobs in raw.matches:
        assert len(jobs) == 3 and len({job.seating for job in jobs}) == 3
        # every seating of a match is dealt the same first deal
        assert len({job.deals[0]["S"] + job.deals[0]["W"] + job.deals[0]["E"] for job in jobs}) == 1


def test_le_neuf_results_fall_by_one_point_per_deal_and_players_are_pooled_by_name():
    raw = run(TournamentConfig(GameSetup("neuf"), ("basic", "random", "random"), deals=40, seed=2))
    for jobs in raw.matches:
        for job in jobs:
            for deal in job.deals:
                assert sum(deal.values()) == -1  # 13 tricks against quotas of 12
    summary = summarise(raw)
    basic, random_player = summary.player("basic"), summary.player("random")
    assert random_player.seats == 2 and basic.seats == 1
    # each deal's three results add up to -1: the means are tied together
    assert basic.mean.mean + 2 * random_player.mean.mean == pytest.approx(-1)
    assert basic.edge.mean == pytest.approx(-random_player.edge.mean)
    assert basic.edge.mean > 0 and basic.edge.clear_of_zero  # basic takes more tricks than random
    assert basic.wins.mean + random_player.wins.mean == pytest.approx(1)
    assert basic.decisions > 0 and basic.time_median >= 0


def test_the_oracle_is_only_for_tournaments():
    assert "oracle" in ORACLE_FACTORIES
    assert "oracle" not in PLAYER_FACTORIES


def test_command_prints_json_with_the_numbers():
    runner = CliRunner()
    result = runner.invoke(
        app, ["tournament", "neuf", "--players", "basic,random,random", "--deals", "12", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout[result.stdout.index("{"):])
    assert document["better"] == "lower" and document["deals"] >= 12
    assert {p["name"] for p in document["players"]} == {"basic", "random"}
    assert document["command"].startswith("nines tournament neuf --players basic,random,random")


def test_command_table_and_errors():
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "neuf", "--players", "basic,random,random", "--deals", "6"])
    assert result.exit_code == 0 and "edge" in result.output and "basic" in result.output
    wrong = runner.invoke(app, ["tournament", "neuf", "--players", "basic,random", "--deals", "5"])
    assert wrong.exit_code != 0 and "3 seats" in wrong.output
    unknown = runner.invoke(app, ["tournament", "neuf", "--players", "nobody", "--deals", "5"])
    said = " ".join(unknown.output.replace("\u2502", " ").split())  # the refusal as one line, out of Rich's box
    assert unknown.exit_code != 0 and "'nobody' is not a player of neuf" in said and "basic" in said


def test_a_match_that_never_ends_is_abandoned_not_fatal(monkeypatch):
    from nines.tournament import play
    from nines.tournament.runner import TournamentError

    config = TournamentConfig(GameSetup("neuf"), ("basic", "random", "random"), deals=40, seed=1)
    monkeypatch.setattr(play, "MAX_ACTIONS", 400)  # a Le Neuf match of more than about 9 deals is cut off
    raw = run(config)
    assert raw.abandoned and raw.deals >= 3
    assert all(job.finished for jobs in raw.matches for job in jobs)
    assert summarise(raw).abandoned == len(raw.abandoned)
    monkeypatch.setattr(play, "MAX_ACTIONS", 30)  # no match can end: the tournament says so
    with pytest.raises(TournamentError, match="did not finish"):
        run(config)


def test_json_output_still_shows_progress_on_standard_error():
    """Standard error not a terminal (a file, a pipe) and --json: plain progress lines there, the JSON alone on
    standard output (a 10-minute run gave no sign of life)."""
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "neuf", "--players", "basic,random,random", "--deals", "6", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    lines = result.stderr.splitlines()
    assert lines and lines[0].startswith("neuf deals: 1 of at least 18 (") and lines[-1].startswith("neuf deals: ")
    assert "played, done" in lines[-1]


def test_the_progress_bar_never_counts_past_its_end(monkeypatch):
    """On a terminal the bar's end grows while the last match goes past the asked count: never "31/30 deals"."""
    import re

    from rich.console import Console

    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "neuf", "--players", "basic,random,random", "--deals", "4", "--seed", "5"])
    assert result.exit_code == 0, result.output
    counts = [(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+)", result.stderr)]
    assert counts, result.stderr
    assert all(done <= total for done, total in counts), counts
    assert counts[-1][0] == counts[-1][1] and counts[-1][0] >= 12, counts[-1]
