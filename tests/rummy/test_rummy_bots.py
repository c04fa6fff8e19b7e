"""The basic rummy player: legal moves from its view only, and clearly better than random."""

from __future__ import annotations

import random

import pytest
from rummy_helpers import position

from nines.bots import make_player, play_match
from nines.bots.rummy_basic import RummyBasic
from nines.games.rummy import Discard, Draw, Lay, RummyOptions, RummyState, Swap


def test_make_player_gives_the_basic_rummy_player() -> None:
    player = make_player("basic", "rummy", random.Random(1))
    assert isinstance(player.player, RummyBasic) and player.name == "basic"  # seated behind the loop guard


@pytest.mark.parametrize("players", range(2, 9))
def test_basic_players_finish_sessions(players: int) -> None:
    state = RummyState(RummyOptions(players=players, hands=2), seed=players)
    seated = {seat: make_player("basic", "rummy", random.Random(i)) for i, seat in enumerate(state.seats)}
    play_match(state, seated)
    assert state.is_over and state.winners
    assert any(d.result and d.result["went_out"] for d in state.deals)


def test_it_opens_when_it_can_and_takes_a_useful_discard() -> None:
    bot = RummyBasic(random.Random(0))
    state = position({"1": "7H 8H 9H 2S KC QD", "2": "6C 7C 8C KD"}, pile="2C TH", stock="3D 4D")
    decision = bot.decide(state.view("1"))
    assert decision.action == Draw("discard") and decision.reason
    state.apply(decision.action)
    decision = bot.decide(state.view("1"))
    assert isinstance(decision.action, Lay) and str(decision.action) == "lay 7H 8H 9H TH"


def test_it_swaps_for_a_wild_and_keeps_wilds_out_of_the_discard() -> None:
    bot = RummyBasic(random.Random(0))
    state = position(
        {"1": "9H 2S KC QD JK", "2": "6C 7C 8C KD"},
        table=(("2", "7H 8H 5S=9H"),),
        opened=("1",),
        stock="3D 4D",
    )
    state.apply("draw stock")
    decision = bot.decide(state.view("1"))
    assert isinstance(decision.action, Swap) and str(decision.action) == "swap H 9H"
    state.apply(decision.action)
    decision = bot.decide(state.view("1"))
    assert isinstance(decision.action, Discard) and not decision.action.card.is_joker
    assert decision.action.card.code != "5S"


def session_points(basic_seat_of, players: int, seeds: range) -> tuple[float, float, int]:
    basic_total = random_total = 0.0
    hands = 0
    for seed in seeds:
        state = RummyState(RummyOptions(players=players, hands=1), seed=seed)
        basic = basic_seat_of(seed, state.seats)
        seated = {
            seat: make_player("basic" if seat == basic else "random", "rummy", random.Random(seed * 31 + i))
            for i, seat in enumerate(state.seats)
        }
        play_match(state, seated)
        points = state.deal.result["points"]  # type: ignore[index]
        basic_total += points[basic]
        random_total += sum(v for s, v in points.items() if s != basic) / (players - 1)
        hands += 1
    return basic_total / hands, random_total / hands, hands


def test_basic_beats_random_clearly() -> None:
    basic, rand, hands = session_points(lambda seed, seats: seats[seed % len(seats)], 3, range(30))
    # measured over these 30 hands: basic 2.3 points a hand, random 74.8
    assert hands == 30 and basic * 3 < rand
