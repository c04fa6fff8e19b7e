"""Imagined rummy deals consistent with one seat's view: the opponents' hands and the stock's order.

A world gives every opponent its known cards (taken from the pile, or a wild taken in a
swap: :class:`nines.bots.expert_rummy.RummyReading`) and fills the rest of its hand from
the unseen cards, each card chosen with the likelihood the reading of that opponent
gives it (:mod:`nines.bots.rummy_reading`: weighted sampling without replacement, by the
keys ``u ** (1 / w)`` of Efraimidis and Spirakis).  The opponents are filled in a random
order each time, so none gets the first pick of the cards.  What is left is the stock,
shuffled; past its end the stock is rebuilt from the discard pile under the top card
(RULES.md, "The stock running out"), so a world goes on with that pile shuffled.

Without a reading (``reading=None``) the unknown cards are dealt uniformly: the plain
information-set sampling the trick games use.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import Card
from .expert_rummy import RummyReading
from .rummy_reading import OpponentReading


@dataclass(frozen=True)
class World:
    hands: dict[str, list[Card]]
    """Each opponent's whole hand."""
    stock: list[Card]
    """The coming draws, top first: the stock, then the discard pile it will be rebuilt from."""


class WorldSampler:
    """Deals worlds for one decision: what every world shares is worked out once.

    The unseen cards, each opponent's known cards and the likelihood of every unseen
    card in each opponent's hand (by its place in the unseen cards, so no card is
    looked up again per world) do not change between the worlds of a decision.
    """

    def __init__(self, reading: RummyReading, opponents: OpponentReading | None) -> None:
        view = reading.view
        self.pool = list(reading.unseen.elements())
        self.seats = list(reading.opponents)
        self.known = {seat: list(reading.known[seat].elements()) for seat in self.seats}
        self.missing = {seat: max(0, view.hand_sizes[seat] - len(self.known[seat])) for seat in self.seats}
        # a key u ** (1 / w) per card: the inverse of each card's weight, by its place in the pool
        self.inverse: dict[str, list[float]] | None = None
        if opponents is not None:
            self.inverse = {}
            for seat in self.seats:
                weights = opponents.seats[seat].weights
                self.inverse[seat] = [1.0 / weights.get(card, 1.0) for card in self.pool]
        self.pile = list(view.discard_pile[:-1])

    def sample(self, rng: random.Random) -> World:
        """One world (the random choices are made in the same order as :func:`sample_world` has always made them)."""
        pool = self.pool
        size = len(pool)
        order_of = list(range(size))
        rng.shuffle(order_of)  # the pool's shuffle: place i holds the card pool[order_of[i]]
        order = list(self.seats)
        rng.shuffle(order)
        hands: dict[str, list[Card]] = {}
        taken = [False] * size
        for seat in order:
            missing = self.missing[seat]
            free = [i for i in range(size) if not taken[i]]
            if missing >= len(free):
                chosen = free
            elif self.inverse is None:
                chosen = free[:missing]  # the pool is shuffled: the first ones are a uniform choice
            else:
                rand = rng.random
                inverse = self.inverse[seat]
                keyed = sorted(free, key=lambda i: rand() ** inverse[order_of[i]], reverse=True)
                chosen = keyed[:missing]
            for i in chosen:
                taken[i] = True
            hands[seat] = self.known[seat] + [pool[order_of[i]] for i in chosen]
        stock = [pool[order_of[i]] for i in range(size) if not taken[i]]
        rebuilt = list(self.pile)
        rng.shuffle(rebuilt)
        return World(hands, stock + rebuilt)


def sample_world(reading: RummyReading, opponents: OpponentReading | None, rng: random.Random) -> World:
    """One deal of the unseen cards that fits the view (and, with ``opponents``, weighted by what they showed)."""
    return WorldSampler(reading, opponents).sample(rng)


__all__ = ["World", "WorldSampler", "sample_world"]
