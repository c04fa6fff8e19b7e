"""The oracle sees every card; tournaments hand it the state, and it plays the solver's best card."""

import random

from nines.bots import make_player
from nines.games.elyigit import ElyigitOptions, ElyigitState
from nines.games.neuf import NeufOptions, NeufState
from nines.games.tricks import Play
from nines.solver import score_cards
from nines.tournament import GameSetup, TournamentConfig, run, summarise
from nines.tournament.oracle import ORACLE_FACTORIES, SeesAllCards


def test_neuf_oracle_plays_a_card_the_solver_rates_best_on_the_true_deal():
    oracle = ORACLE_FACTORIES["oracle"]("neuf", random.Random(1))
    assert isinstance(oracle, SeesAllCards)
    basic = make_player("basic", "neuf")
    state = NeufState(NeufOptions(), seed=3)
    checked = 0
    while not state.is_over and state.deal.number == 1:
        seat = state.acting_seat
        if seat == "S":
            decision = oracle.decide_state(state, seat)
            if isinstance(decision.action, Play):
                deal = state.deal
                scores = score_cards("neuf", {s: deal.hands[s] for s in state.seats}, deal.trump,
                                     deal.trick.leader, deal.trick.cards)
                assert scores[decision.action.card] == max(scores.values())
                checked += 1
        else:
            decision = basic.decide(state.view(seat))
        state.apply(decision.action, by=seat)
    assert checked >= 10


def test_elyigit_oracle_finishes_deals_as_declarer_and_defender():
    oracle = ORACLE_FACTORIES["oracle"]("elyigit", random.Random(1))
    basic = make_player("basic", "elyigit")
    state = ElyigitState(ElyigitOptions(target=10), seed=4)
    while not state.is_over:
        seat = state.acting_seat
        decision = oracle.decide_state(state, seat) if seat in "NS" else basic.decide(state.view(seat))
        state.apply(decision.action, by=seat)
    assert state.is_over


def test_oracle_takes_part_in_a_tournament():
    summary = summarise(run(TournamentConfig(GameSetup("neuf"), ("oracle", "basic", "basic"), deals=6, seed=2)))
    oracle = summary.player("oracle")
    assert oracle.decisions > 0 and oracle.edge.mean > -5
