"""Elyigit's Nines: deal, solve every trump, and describe the declarer's and the dummy's hands.

Convention (docs/analysis/method.md): **N declares, S is the dummy, E leads** (the defender on
the declarer's left, the game's standard first lead).  Each deal is solved exactly once for
each trump suit, all nine tricks played out; the number kept is the tricks of the
declaring side NS.  Deals are uniformly random, so one fixed declarer loses nothing: every
seat's hand is as random as N's.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import polars as pl

from ..cards import SUITS, ace_low, format_deal
from ..solver import Solver, make_position
from .deals import ELYIGIT_RANKS, ELYIGIT_SEATS, elyigit_deal, hands_array
from .store import Chunk

__all__ = [
    "DECLARER",
    "DUMMY",
    "HAND_FEATURES",
    "LEADER",
    "TRICKS_COLUMNS",
    "TRUMPS",
    "ElyigitStudy",
    "feature_rows",
]

DECLARER, DUMMY, LEADER = "N", "S", "E"
TRUMPS: tuple[str, ...] = tuple(suit.letter for suit in SUITS)
TRICKS_COLUMNS: dict[str, str] = {suit.letter: f"tricks_{suit.name.lower()}" for suit in SUITS}
"""Per-deal column of the declaring side's tricks with each trump: ``tricks_spades`` ..."""

HAND_FEATURES: tuple[str, ...] = (
    "side_voids",
    "side_singletons",
    "nines",
    "eights",
    "sevens",
    "sixes",
    "trump_length",
    "longest_side_suit",
)
"""The features of one hand that the models use (the dummy's carry the prefix ``dummy_``).

Ranks are counted against the low cards (ace to five): ``nines`` is what holding a nine
instead of a low card is worth.  ``side_`` counts only the three suits that are not trumps.
"""

@functools.cache
def _process_solver(table_mb: float) -> Solver:
    """One solver per process (and table size), its table reused from deal to deal."""
    return Solver(table_mb)


@dataclass(frozen=True)
class ElyigitStudy:
    """N declares, S is dummy, E leads; every deal solved for each of the four trumps."""

    seed: int
    table_mb: float = 32.0
    game: ClassVar[str] = "elyigit"

    @property
    def solves_per_deal(self) -> int:
        return len(TRUMPS)

    def identity(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "declarer": DECLARER,
            "dummy": DUMMY,
            "leader": LEADER,
            "trumps": list(TRUMPS),
            "value": "tricks of the declaring side NS, exact, all nine tricks played out",
        }

    def solve_chunk(self, chunk: Chunk) -> pl.DataFrame:
        solver = _process_solver(self.table_mb)
        numbers = list(range(chunk.start, chunk.stop))
        texts: list[str] = []
        tricks = np.zeros((len(numbers), len(SUITS)), dtype=np.int8)
        for row, number in enumerate(numbers):
            hands = elyigit_deal(self.seed, number)
            texts.append(format_deal(hands, ELYIGIT_SEATS, strength=ace_low))
            position = make_position("elyigit", hands, SUITS[0], LEADER)
            for k, suit in enumerate(SUITS):
                # only the trump differs between the four solves: the hands were checked once
                tricks[row, k] = solver.value(dataclasses.replace(position, trump=suit), "NS")
        columns: dict[str, Any] = {"deal": pl.Series(numbers, dtype=pl.Int64), "hands": texts}
        for k, suit in enumerate(SUITS):
            columns[TRICKS_COLUMNS[suit.letter]] = pl.Series(tricks[:, k], dtype=pl.Int8)
        return pl.DataFrame(columns)


# --- features ---------------------------------------------------------------------------

_RANK = {char: i for i, char in enumerate(ELYIGIT_RANKS)}


def _hand_features(hand: np.ndarray, trump: int) -> dict[str, np.ndarray]:
    """Features of one seat's hands ``[deal, suit, rank]`` with ``trump`` the trump suit's index."""
    lengths = hand.sum(axis=2)  # [deal, suit]
    side = np.ones(len(SUITS), dtype=bool)
    side[trump] = False
    side_lengths = lengths[:, side]
    by_rank = hand.sum(axis=1)  # [deal, rank]
    return {
        "side_voids": (side_lengths == 0).sum(axis=1),
        "side_singletons": (side_lengths == 1).sum(axis=1),
        "nines": by_rank[:, _RANK["9"]],
        "eights": by_rank[:, _RANK["8"]],
        "sevens": by_rank[:, _RANK["7"]],
        "sixes": by_rank[:, _RANK["6"]],
        "trump_length": lengths[:, trump],
        "longest_side_suit": side_lengths.max(axis=1),
        # described, not modelled (each is a combination of the above or a finer split)
        "voids": (lengths == 0).sum(axis=1),
        "singletons": (lengths == 1).sum(axis=1),
        "longest_suit": lengths.max(axis=1),
        "trump_nine": hand[:, trump, _RANK["9"]].astype(np.int64),
        "side_nines": by_rank[:, _RANK["9"]] - hand[:, trump, _RANK["9"]],
    }


def card_sense_trump(hand: np.ndarray) -> np.ndarray:
    """The trump a player reaching for length would name: the longest suit, the one with the
    higher cards between equally long ones (nine first, then eight, ...), then the first in
    S H D C order.  ``hand`` is ``[deal, suit, rank]``; the result is a suit index per deal."""
    lengths = hand.sum(axis=2).astype(np.int64)
    weights = 1 << np.arange(hand.shape[2], dtype=np.int64)  # the nine weighs most
    key = lengths * (1 << hand.shape[2]) + (hand.astype(np.int64) * weights).sum(axis=2)
    choice: np.ndarray = key.argmax(axis=1)
    return choice


def feature_rows(deals: pl.DataFrame) -> pl.DataFrame:
    """One row per deal and trump: the declaring side's tricks and both hands' features.

    Columns: ``deal``, ``trump`` (a suit letter), ``tricks`` (NS), ``chosen`` (1 when this
    trump is the declarer's card-sense choice, :func:`card_sense_trump`), the declarer's
    features and the dummy's with the prefix ``dummy_``.
    """
    hands = hands_array(deals["hands"].to_list(), ELYIGIT_SEATS, ELYIGIT_RANKS)
    declarer = hands[:, ELYIGIT_SEATS.index(DECLARER)]
    dummy = hands[:, ELYIGIT_SEATS.index(DUMMY)]
    choice = card_sense_trump(declarer)
    numbers = deals["deal"].to_numpy()
    blocks = []
    for k, suit in enumerate(SUITS):
        columns: dict[str, Any] = {
            "deal": numbers,
            "trump": [suit.letter] * len(numbers),
            "tricks": deals[TRICKS_COLUMNS[suit.letter]].to_numpy().astype(np.int8),
            "chosen": (choice == k).astype(np.int8),
        }
        for name, values in _hand_features(declarer, k).items():
            columns[name] = values.astype(np.int8)
        for name, values in _hand_features(dummy, k).items():
            columns[f"dummy_{name}"] = values.astype(np.int8)
        blocks.append(pl.DataFrame(columns))
    return pl.concat(blocks, how="vertical").sort("deal", maintain_order=True)
