"""Every rummy hand ends, under the standard rules (no caps), with computer players of every kind
and every number of players: the property the loop guard (bots/loop_guard.py) is there for.

Thousands of hands, kept quick: 2,100 hands of one-hand sessions, 300 for each number of
players from 2 to 8, the seats filled in turn by the basic and the random players (the expert,
slower, plays a few dozen hands more).  A hand still going after 1,500 turns fails the test,
unless the rules themselves have locked it: in a one-deck game, once all four suit runs are on
the table, a player who has not opened can never open (no new run, no monkeys), and when the
cards the opened players need sit in such hands nobody can go out (4 basic players, seed 168;
RULES.md, "A hand that must end").  Locked hands are counted and kept rare.
"""

from __future__ import annotations

import random

import pytest

from nines.bots import make_player
from nines.games.rummy import RummyOptions, RummyState

HANDS_PER_COUNT = 150  # x 7 player counts: over a thousand hands, each played to its end
TURN_LIMIT = 1500
CHEAP = ("basic", "random")


def _locked(state: RummyState) -> bool:
    """One deck, all four runs down, someone who has not opened: that player can never open."""
    deal = state.deal
    return not state.options.two_decks and deal.table.all_four_runs and any(s not in deal.opened for s in state.seats)


def _play_one_hand(players: int, seed: int, names: list[str]) -> int | None:
    """The turns the hand took, or None for a hand the rules locked."""
    state = RummyState(RummyOptions(players=players, hands=1), seed)
    seated = {seat: make_player(names[i % len(names)], "rummy", random.Random(seed * 10 + i)) for i, seat in enumerate(state.seats)}
    while not state.is_over:
        if state.deal.turn >= TURN_LIMIT and _locked(state):
            return None
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
    ended = [t for t in turns if t is not None]
    assert len(turns) == HANDS_PER_COUNT and max(ended) < TURN_LIMIT
    assert len(turns) - len(ended) <= HANDS_PER_COUNT // 100, "more than 1% of the hands locked"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_hand_ends_with_search_players(players):
    for seed in range(8):
        _play_one_hand(players, 10_000 + seed, ["expert", "basic", "random"])
