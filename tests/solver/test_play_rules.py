"""The compiled core's legal cards against the rules written in Python: the Elyigit rules
module of the game itself (nines.games.elyigit.play_rules) and the tests' own reference."""

from __future__ import annotations

import random

import pytest

from nines.cards import SUITS, Card, deck_36, deck_52
from nines.games.tricks import Trick, follow_suit
from nines.solver import legal_cards, make_position

from .reference import ELYIGIT, NEUF_PARTNERS, legal

play_rules = pytest.importorskip("nines.games.elyigit.play_rules")


def random_trick_position(rng: random.Random, game_name: str):
    """A hand of 1 to 9 cards for the seat to play and 0 to 3 cards on the table (any cards:
    the rule only looks at the hand and the table)."""
    deck = deck_36() if game_name == "elyigit" else deck_52()
    size = rng.randrange(1, 10)
    on_table = rng.randrange(0, 4)
    cards = rng.sample(deck, size + on_table)
    return cards[:size], cards[size:], rng.choice([None, *SUITS])


def position_for(game_name: str, hand: list[Card], table: list[Card], trump):
    """A position with ``hand`` to play after ``table``; the other hands hold spare cards.
    Cards on the table need not have been legal here, so the check is skipped by building
    the position with the table cards led by seats that held nothing else."""
    seats = ("N", "E", "S", "W")
    to_play = seats[len(table)]
    deck = deck_36() if game_name == "elyigit" else deck_52()
    spare = [c for c in deck if c not in hand and c not in table]
    hands = {}
    for k, seat in enumerate(seats):
        if seat == to_play:
            hands[seat] = hand
        else:
            n = len(hand) - (1 if k < len(table) else 0)
            hands[seat], spare = spare[:n], spare[n:]
    return hands, to_play


@pytest.mark.parametrize("seed", range(4))
def test_elyigit_core_rule_equals_the_rules_module(seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    for _ in range(500):
        hand, table, trump = random_trick_position(rng, "elyigit")
        expected = sorted(play_rules.legal_plays(hand, table, trump))
        assert sorted(legal(hand, table, trump, ELYIGIT)) == expected
        hands, _ = position_for("elyigit", hand, table, trump)
        try:
            position = make_position("elyigit", hands, trump, "N", table)
        except ValueError:
            continue  # an earlier table card breaks the rule itself; the core is checked below
        assert legal_cards(position) == expected
        compared += 1
    assert compared > 100


def test_elyigit_core_rule_on_every_table() -> None:
    """Straight at the compiled rule, tables that no legal play could produce included."""
    from nines.solver import _core
    from nines.solver.games import GAMES

    g = GAMES["elyigit"]
    rng = random.Random(99)
    for _ in range(4000):
        hand, table, trump = random_trick_position(rng, "elyigit")
        codes = _core.legal(g.rule, -1 if trump is None else trump.index, g.masks(hand), [g.code(c) for c in table])
        assert sorted(g.card(c) for c in codes) == sorted(play_rules.legal_plays(hand, table, trump))


def test_le_neuf_core_rule_is_follow_suit() -> None:
    from nines.solver import _core
    from nines.solver.games import GAMES

    g = GAMES["neuf"]
    rng = random.Random(7)
    for _ in range(3000):
        hand, table, trump = random_trick_position(rng, "neuf")
        codes = _core.legal(g.rule, -1 if trump is None else trump.index, g.masks(hand), [g.code(c) for c in table])
        trick = Trick("N", [("NESW"[i], c) for i, c in enumerate(table)])
        assert sorted(g.card(c) for c in codes) == sorted(follow_suit(hand, trick)) == sorted(legal(hand, table, trump, NEUF_PARTNERS))
