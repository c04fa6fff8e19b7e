"""SO-ISMCTS: the search, and the Le Neuf player built on it."""

import random

from nines.bots import make_player, play_match
from nines.bots.ismcts import search
from nines.bots.ismcts_neuf import NeufIsmcts
from nines.bots.tricksim import FOLLOW_SUIT, TrickPosition
from nines.cards import parse_card
from nines.games.neuf import Keep, NeufOptions, NeufState
from nines.games.tricks import Play

from ..neuf.positions import position


def test_search_finds_the_better_card_in_a_known_ending():
    # No trumps.  Seat 0 holds AS KS 2H; the others hold QS 3H 4H and JS 5H 6H.
    # Cashing the spades first makes two tricks; leading the 2H lets seat 2 run the
    # hearts while seat 0 must throw a spade: one trick.
    spades, hearts = 0, 1
    hands = [
        [spades * 16 + 14, spades * 16 + 13, hearts * 16 + 2],
        [spades * 16 + 12, hearts * 16 + 3, hearts * 16 + 4],
        [spades * 16 + 11, hearts * 16 + 5, hearts * 16 + 6],
    ]

    def world(rng):
        return TrickPosition([list(h) for h in hands], trump=-1, leader=0)

    found = search(world, FOLLOW_SUIT, lambda pos: [w / 3 for w in pos.won], random.Random(1), iterations=400)
    assert found.card in (spades * 16 + 14, spades * 16 + 13)
    assert found.value[found.card] > found.value[hearts * 16 + 2]


def test_ismcts_player_takes_the_trick_it_surely_wins_last_to_play():
    state = position(s="AK2.Q.J.T", w="Q3.A.KT.J", e="J4.K.AQ.Q", spare="T5.J.Q.K", dealer="E", exchange=False)
    state.apply(Play(parse_card("2S")))  # S leads the two
    state.apply(Play(parse_card("QS")))  # W plays the queen
    player = NeufIsmcts(random.Random(3), iterations=300)
    decision = player.decide(state.view("E"))  # E holds J4 of spades: cannot beat the queen
    assert str(decision.action) in ("play JS", "play 4S")
    assert decision.reason


def test_exchange_decision_compares_both_choices():
    # S holds every ace and king: keeping is plainly right.
    state = position(s="AKQ.AKQ.AKQ.AKQ2", w="JT98.JT9.JT9.JT9", e="765.8765.876.876", dealer="E")
    decision = NeufIsmcts(random.Random(1), iterations=100).decide(state.view("S"))
    assert isinstance(decision.action, Keep) and "keep" in decision.reason


def test_ismcts_plays_whole_matches_legally_and_beats_random():
    state = NeufState(NeufOptions(start_score=3), seed=4)
    players = {
        "S": make_player("ismcts", "neuf", random.Random(1)),
        "W": make_player("random", "neuf", random.Random(2)),
        "E": make_player("random", "neuf", random.Random(3)),
    }
    players["S"].iterations = 60  # type: ignore[attr-defined]
    play_match(state, players)
    assert state.is_over
    changes = [d.result["score_change"]["S"] for d in state.deals]
    assert sum(changes) / len(changes) < 0  # more than its quota on average


def test_partnership_results_are_shared():
    state = NeufState(NeufOptions(form="partners"), seed=2)
    player = NeufIsmcts(random.Random(1), iterations=50)
    decision = player.decide(state.view(state.acting_seat))
    assert decision.action in state.legal_actions()
