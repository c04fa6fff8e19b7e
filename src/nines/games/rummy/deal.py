"""Setting up a hand: the pack, nine cards each, the indicator, the first discard, the stock.

Rules applied (seed 002, "Set up the hand"): one 54-card deck for 2 to 4 players, two
for 5 to 8; nine cards to each player; the next card turned is the indicator (a printed
joker turned is shuffled back into the undealt cards and another card turned); one
more card starts the discard pile; the rest is the face-down stock.  When the stock
runs out, the top discard stays face up and the rest of the pile is shuffled into a
new stock.  Every shuffle uses the match's own random generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...cards import Card, deck_54, shuffled
from .options import HAND_SIZE


def pack(decks: int) -> list[Card]:
    """The cards of the game: one or two 54-card decks."""
    return [card for _ in range(decks) for card in deck_54()]


@dataclass(frozen=True)
class Layout:
    """A hand as set up: each seat's nine cards, the indicator, the first discard and the stock."""

    hands: dict[str, list[Card]]
    indicator: Card
    indicator_turned: tuple[Card, ...]
    """Every card turned for the indicator, jokers that went back included; the last is the indicator."""
    first_discard: Card
    stock: list[Card]
    """Top card first."""


def deal(seats: Sequence[str], starter: str, decks: int, rng: random.Random) -> Layout:
    """Shuffle the pack and lay out a hand, dealing one card at a time from the starter clockwise."""
    cards = shuffled(pack(decks), rng)
    order = list(seats[seats.index(starter):]) + list(seats[: seats.index(starter)])
    hands: dict[str, list[Card]] = {seat: [] for seat in seats}
    for i in range(HAND_SIZE * len(order)):
        hands[order[i % len(order)]].append(cards[i])
    rest = cards[HAND_SIZE * len(order):]
    turned = [rest.pop(0)]
    # A printed joker cannot be the indicator: shuffle it back and turn another card.
    while turned[-1].is_joker:
        rest.append(turned[-1])
        rng.shuffle(rest)
        turned.append(rest.pop(0))
    first_discard = rest.pop(0)
    return Layout(
        hands={seat: hands[seat] for seat in seats},
        indicator=turned[-1],
        indicator_turned=tuple(turned),
        first_discard=first_discard,
        stock=rest,
    )


def rebuild_stock(discard_pile: list[Card], rng: random.Random) -> tuple[list[Card], list[Card]]:
    """The stock has run out: keep the top discard face up, shuffle the rest into a new stock.

    Returns ``(new discard pile, new stock top first)``.
    """
    top = discard_pile[-1:]
    stock = shuffled(discard_pile[:-1], rng)
    return top, stock
