"""Random deals derived from a seed and a deal number, each on its own.

Deal ``i`` of a run with seed ``s`` comes from a generator seeded by a hash of
``(game, s, i)`` alone, never from a generator shared along the run: chunks of a run can be
dealt and solved anywhere, in any order, and the numbers come out the same.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import numpy as np

from ..cards import SUITS, Card, deck_36, deck_52

__all__ = [
    "ELYIGIT_RANKS",
    "ELYIGIT_SEATS",
    "NEUF_RANKS",
    "NEUF_SEATS",
    "NEUF_SPARE",
    "deal_rng",
    "elyigit_deal",
    "hands_array",
    "neuf_deal",
]

ELYIGIT_SEATS: tuple[str, ...] = ("N", "E", "S", "W")
NEUF_SEATS: tuple[str, ...] = ("S", "W", "E")
NEUF_SPARE = "spare"
ELYIGIT_RANKS = "A23456789"
"""Elyigit's Nines' ranks, weakest first: the ace is low."""
NEUF_RANKS = "23456789TJQKA"
"""Le Neuf's ranks, weakest first: the ace is high."""

_DECK_36: tuple[Card, ...] = tuple(deck_36())
_DECK_52: tuple[Card, ...] = tuple(deck_52())


def deal_rng(game: str, seed: int, index: int) -> random.Random:
    """The generator of deal ``index`` of a run: a function of ``(game, seed, index)`` only."""
    if index < 0:
        raise ValueError(f"deal numbers start at 0, not {index}")
    digest = hashlib.blake2b(f"nines.analysis/{game}/{seed}/{index}".encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


def elyigit_deal(seed: int, index: int) -> dict[str, list[Card]]:
    """Deal ``index``: the 36 cards shuffled, nine each to N, E, S, W (a uniformly random deal)."""
    deck = list(_DECK_36)
    deal_rng("elyigit", seed, index).shuffle(deck)
    return {seat: deck[9 * k : 9 * k + 9] for k, seat in enumerate(ELYIGIT_SEATS)}


def neuf_deal(seed: int, index: int) -> dict[str, list[Card]]:
    """Deal ``index`` of Le Neuf: 52 cards shuffled, thirteen each to S, W, E and the spare hand."""
    deck = list(_DECK_52)
    deal_rng("neuf", seed, index).shuffle(deck)
    owners = (*NEUF_SEATS, NEUF_SPARE)
    return {seat: deck[13 * k : 13 * k + 13] for k, seat in enumerate(owners)}


def hands_array(deals: Sequence[str], seats: Sequence[str], rank_order: str) -> np.ndarray:
    """Deals in the project's notation as a boolean array ``[deal, seat, suit, rank]``.

    Each deal is written from the game's first seat (``"N:..."``), one hand per seat of
    ``seats``; ``rank_order`` lists the rank characters from the weakest to the strongest
    (``ELYIGIT_RANKS``), so rank index 0 is the weakest card.  The stored per-deal data is
    read back this way, a whole run at a time, for the features.
    """
    index = {char: i for i, char in enumerate(rank_order)}
    out = np.zeros((len(deals), len(seats), len(SUITS), len(rank_order)), dtype=bool)
    flat = out.reshape(len(deals), -1)
    suit_stride = len(rank_order)
    seat_stride = len(SUITS) * suit_stride
    first = f"{seats[0]}:"
    for d, text in enumerate(deals):
        if not text.startswith(first):
            raise ValueError(f"deal {d} is written from {text.partition(':')[0]!r}, not from {seats[0]}: {text!r}")
        hands = text[len(first) :].split()
        if len(hands) != len(seats):
            raise ValueError(f"deal {d} has {len(hands)} hands, not {len(seats)}: {text!r}")
        row = flat[d]
        for s, hand in enumerate(hands):
            for k, suit in enumerate(hand.split(".")):
                if suit == "-":
                    continue
                base = s * seat_stride + k * suit_stride
                for char in suit:
                    row[base + index[char]] = True
    return out
