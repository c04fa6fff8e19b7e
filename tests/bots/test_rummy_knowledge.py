"""The measuring players of ``benchmarks/rummy_knowledge.py`` are told exactly the hidden thing they claim, and no more."""

import random
import runpy
from collections import Counter
from pathlib import Path

from nines.bots.expert_rummy import RummyReading

from ..rummy.rummy_helpers import position

KNOWLEDGE = runpy.run_path(str(Path(__file__).resolve().parents[2] / "benchmarks" / "rummy_knowledge.py"))


def _state():
    state = position(
        {"1": "2C 3C 9D TD QS 4S KD", "2": "6C 7C JS JH 2D 3D KH"},
        pile="8H", stock="KC 5S 9C 8C 4D 6S 7D", to_act="2", starter="2",
    )
    for text in ["draw stock", "discard KC", "draw stock"]:
        state.apply(state.parse_action(text))
    return state


def _worlds(kind, state, seat):
    player = KNOWLEDGE[kind](random.Random(5), kind)
    player.state = state
    return player._worlds(RummyReading(state.view(seat)))


def test_sees_next_puts_the_stock_s_actual_next_card_on_top_and_samples_the_rest():
    state = _state()
    next_card = state.deal.stock[0]
    worlds = _worlds("SeesNext", state, "1")
    assert worlds and all(world.stock[0] == next_card for world in worlds)
    # the opponent's hand is still imagined: the worlds do not all give it its actual cards
    actual = Counter(state.deal.hands["2"])
    assert any(Counter(world.hands["2"]) != actual for world in worlds)
    for world in worlds:
        assert len(world.hands["2"]) == len(state.deal.hands["2"]) and next_card not in world.hands["2"]


def test_sees_hands_knows_the_opponent_s_hand_and_the_stock_s_cards_but_not_their_order():
    state = _state()
    worlds = _worlds("SeesHands", state, "1")
    stock = list(state.deal.stock)
    for world in worlds:
        assert Counter(world.hands["2"]) == Counter(state.deal.hands["2"])
        assert Counter(world.stock[: len(stock)]) == Counter(stock)
    assert any(world.stock[: len(stock)] != stock for world in worlds)
