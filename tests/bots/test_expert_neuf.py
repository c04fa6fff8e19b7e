"""The Le Neuf expert: its exchange, its card play, and what it reads from the others' exchanges."""

import random

from nines.bots.expert_neuf import NeufBudget, NeufExpert, exchange_likelihood, spare_offered
from nines.bots.neuf_hand_value import hand_value
from nines.bots.neuf_worlds import NeufKnowledge, code
from nines.cards import Suit, parse_card, parse_cards
from nines.games.neuf import Exchange, Keep, NeufState
from nines.games.tricks import Play
from nines.solver import score_cards

from ..neuf.positions import SUITED, position

SMALL = NeufBudget(worlds={13: 4, 12: 4, 11: 4, 10: 4, 9: 4}, fewest_cards_worlds=6, exchange_solved=3, exchange_valued=30)


def _codes(text):
    return [code(c) for c in parse_cards(text)]


def test_hand_model_ranks_hands_by_their_honours():
    aces = _codes("AS KS QS AH KH QH AD KD QD AC KC QC 2C")
    small = _codes("2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C")
    for trump in (-1, 1):
        assert hand_value(aces, trump) > 8
        assert hand_value(small, trump) < 1
    long_trumps = _codes("AH KH QH JH TH 9H 8H 2S 3S 2D 3D 2C 3C")
    assert hand_value(long_trumps, 1) > hand_value(long_trumps, -1) + 1


def test_expert_keeps_a_great_hand_and_exchanges_a_hopeless_one():
    great = position(s="AKQ.AKQ.AKQ.AKQ2", w="JT98.JT9.JT9.JT9", e="765.8765.876.876", dealer="E")
    decision = NeufExpert(random.Random(1), SMALL).decide(great.view("S"))
    assert isinstance(decision.action, Keep) and "keep" in decision.reason
    hopeless = position(s="765.8765.876.876", w="JT98.JT9.JT9.JT9", e="AKQ.AKQ.AKQ.AKQ2", dealer="E")
    decision = NeufExpert(random.Random(1), SMALL).decide(hopeless.view("S"))
    assert isinstance(decision.action, Exchange) and "exchange" in decision.reason


def test_given_the_true_deal_as_its_only_world_the_expert_plays_a_best_card():
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = NeufState(seed=seed)
        while state.deal.phase == "exchange":
            state.apply(Keep())
        for _ in range(rng.randrange(3, 25)):
            state.apply(rng.choice(state.legal_actions()))
        if state.deal.phase != "play" or len(state.legal_actions()) < 2:
            continue
        seat = state.to_act
        truth = {s: [code(c) for c in state.deal.hands[s]] for s in state.seats}
        truth["extra"] = [code(c) for c in state.deal.set_aside]
        expert = NeufExpert(random.Random(1), SMALL)
        expert._worlds = lambda knowledge, count, trump, deal=truth: [deal]  # type: ignore[method-assign]
        decision = expert.decide(state.view(seat))
        scores = score_cards(
            "neuf", {s: state.deal.hands[s] for s in state.seats}, state.deal.trump, state.deal.trick.leader,
            state.deal.trick.cards,
        )
        assert scores[decision.action.card] == max(scores.values())
        checked += 1
    assert checked >= 3


def test_reading_the_exchange():
    state = position(**SUITED, dealer="E")
    state.apply(Keep())
    state.apply(Exchange())
    knowledge = NeufKnowledge.from_view(state.view("E"))
    assert spare_offered(knowledge) == {"S": True, "W": True}
    weak, strong = _codes("2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C"), _codes("AS KS QS AH KH QH AD KD QD AC KC QC 2C")
    assert exchange_likelihood(weak, Suit.HEARTS, True, "exchange") > 0.8
    assert exchange_likelihood(strong, Suit.HEARTS, True, "keep") > 0.8
    # a hand someone else gave up is taken less readily than the spare
    middling = _codes("AS 3S 4S 5S KH 3H 4H 5H 2D 3D 4D 2C 3C")
    assert exchange_likelihood(middling, None, True, "exchange") > exchange_likelihood(middling, None, False, "exchange")


def test_expert_plays_only_legal_cards_following_suit():
    state = position(s="AK2.Q.J.T", w="Q3.A.KT.J", e="J4.K.AQ.Q", spare="T5.J.Q.K", dealer="E", exchange=False)
    state.apply(Play(parse_card("2S")))
    decision = NeufExpert(random.Random(5), SMALL).decide(state.view("W"))
    assert decision.action in state.legal_actions() and decision.action.card.suit is Suit.SPADES


def test_a_deal_too_costly_to_solve_is_left_out_and_the_expert_still_plays():
    """With a node limit no deal can meet, every imagined deal is left out: the exchange
    falls back on the hand model and the card play keeps trumps and high cards, both legal."""
    from dataclasses import replace

    broke = replace(SMALL, max_nodes=1)
    great = position(s="AKQ.AKQ.AKQ.AKQ2", w="JT98.JT9.JT9.JT9", e="765.8765.876.876", dealer="E")
    assert isinstance(NeufExpert(random.Random(1), broke).decide(great.view("S")).action, Keep)
    state = position(s="AK2.Q.J.T", w="Q3.A.KT.J", e="J4.K.AQ.Q", spare="T5.J.Q.K", dealer="E", exchange=False)
    state.apply(Play(parse_card("2S")))
    decision = NeufExpert(random.Random(5), broke).decide(state.view("W"))
    assert decision.action in state.legal_actions() and "no likely deal could be solved in time" in decision.reason
    assert decision.action.card == parse_card("3S")  # the low spade, keeping the queen
