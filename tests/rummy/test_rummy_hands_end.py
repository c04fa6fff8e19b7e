"""Every rummy hand ends, under the standard rules (no caps), with computer players of every kind
and every number of players: the property the loop guard (bots/loop_guard.py) is there for.

Thousands of hands, kept quick: 2,100 hands of one-hand sessions, 300 for each number of
players from 2 to 8, the seats filled in turn by the basic and the random players (the expert,
slower, plays a few dozen hands more).  A hand that went on for 3,000 turns would fail the test.
"""

from __future__ import annotations

import random

import pytest

from nines.bots import make_player
from nines.games.rummy import RummyOptions, RummyState

HANDS_PER_COUNT = 300
TURN_LIMIT = 3000
CHEAP = ("basic", "random")


def _play_one_hand(players: int, seed: int, names: list[str]) -> int:
    state = RummyState(RummyOptions(players=players, hands=1), seed)
    seated = {seat: make_player(names[i % len(names)], "rummy", random.Random(seed * 10 + i)) for i, seat in enumerate(state.seats)}
    while not state.is_over:
        assert state.deal.turn < TURN_LIMIT, f"{players} players, seed {seed}: the hand did not end"
        seat = state.acting_seat
        state.apply(seated[seat].decide(state.view(seat)).action, by=seat)
    result = state.record()["deals"][0]["result"]
    assert result["ended_by"] == "out" and result["went_out"] in state.seats
    return state.deal.turn + 1


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_every_hand_ends_with_cheap_players(players):
    turns = [
        _play_one_hand(players, seed, list(CHEAP) if seed % 3 else [CHEAP[seed % 2]])
        for seed in range(HANDS_PER_COUNT)
    ]
    assert len(turns) == HANDS_PER_COUNT and max(turns) < TURN_LIMIT


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_hand_ends_with_search_players(players):
    for seed in range(8):
        _play_one_hand(players, 10_000 + seed, ["expert", "basic", "random"])
