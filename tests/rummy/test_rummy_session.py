"""Seed 002's session: "there is no fixed number of hands: when the group ends the session"."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from nines.bots import make_player
from nines.cli import app
from nines.games.contract import IllegalAction, OutOfTurn
from nines.games.rummy import PRESETS, EndSession, RummyOptions, RummyState, parse_rummy_action
from nines.record import replay


def _play_hand(state: RummyState, seed: int = 0) -> None:
    """Computer players play until the hand in progress is over."""
    players = {seat: make_player("basic", "rummy", random.Random(seed + i)) for i, seat in enumerate(state.seats)}
    number = state.deal.number
    while not state.is_over and state.deal.number == number:
        seat = state.acting_seat
        state.apply(players[seat].decide(state.view(seat)).action, by=seat)


def test_the_standard_session_is_open_and_ends_after_the_hand_in_which_the_table_asks():
    state = RummyState(RummyOptions(players=3), 5)
    assert PRESETS["standard"] == RummyOptions() and state.view("1").hands_in_session is None
    for _ in range(4):  # hands follow one another until someone ends the session
        _play_hand(state)
    assert not state.is_over and state.deal.number == 5
    # anyone at the table, whoever's turn it is
    somebody_else = next(s for s in state.seats if s != state.acting_seat)
    state.apply("end session", by=somebody_else)
    assert state.session_ending and state.view("1").session_ending and not state.is_over
    with pytest.raises(IllegalAction, match="already ends after this hand"):
        state.apply("end session", by=somebody_else)
    _play_hand(state)
    assert state.is_over and len(state.score_sheet()) == 5
    record = json.loads(json.dumps(state.record()))
    assert {"seat": record["deals"][4]["actions"][0]["seat"], "action": "end-session"} in record["deals"][4]["actions"]
    assert replay(record).record() == record


def test_end_session_is_not_a_move_a_player_chooses_and_only_players_at_the_table_may_ask():
    state = RummyState(RummyOptions(players=2), 1)
    assert EndSession() not in state.legal_actions() and parse_rummy_action("end session") == EndSession()
    with pytest.raises(OutOfTurn, match="only a player at the table"):
        state.apply("end session", by="7")
    before = state.record()
    fixed = RummyState(RummyOptions(players=2, hands=3), 1)
    with pytest.raises(IllegalAction, match="fixed number of hands \\(3\\)"):
        fixed.apply("end session")
    assert state.record() == before


def test_simulations_and_tournaments_play_a_fixed_number_of_hands():
    result = CliRunner().invoke(app, ["simulate", "rummy", "--players", "basic,basic", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["options"]["hands"] is None and len(record["deals"]) == 2  # one hand per player
    assert record["options"]["reshuffles"] is None and record["options"]["turns_per_player"] is None
