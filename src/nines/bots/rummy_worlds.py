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


def sample_world(reading: RummyReading, opponents: OpponentReading | None, rng: random.Random) -> World:
    """One deal of the unseen cards that fits the view (and, with ``opponents``, weighted by what they showed)."""
    view = reading.view
    pool = list(reading.unseen.elements())
    rng.shuffle(pool)
    order = list(reading.opponents)
    rng.shuffle(order)
    hands: dict[str, list[Card]] = {}
    taken = [False] * len(pool)
    for seat in order:
        known = list(reading.known[seat].elements())
        missing = max(0, view.hand_sizes[seat] - len(known))
        free = [i for i in range(len(pool)) if not taken[i]]
        if missing >= len(free):
            chosen = free
        elif opponents is None:
            chosen = free[:missing]  # the pool is shuffled: the first ones are a uniform choice
        else:
            rand = rng.random
            weight = opponents.seats[seat].weights
            keyed = sorted(free, key=lambda i: rand() ** (1.0 / weight.get(pool[i], 1.0)), reverse=True)
            chosen = keyed[:missing]
        for i in chosen:
            taken[i] = True
        hands[seat] = known + [pool[i] for i in chosen]
    stock = [pool[i] for i in range(len(pool)) if not taken[i]]
    rebuilt = list(view.discard_pile[:-1])
    rng.shuffle(rebuilt)
    return World(hands, stock + rebuilt)


__all__ = ["World", "sample_world"]
