"""Le Neuf: what the exchange with the spare hand is worth, and what trumps do to the tricks.

Convention (docs/analysis/method.md): **E deals, so S, on the dealer's left, is the first
offered the exchange and leads the first trick.**  Each deal is solved exactly for each
trump asked (by default the whole cycle H D C S and no trumps):

* with the hands as dealt, each player's *paranoid* value (the most tricks it takes with the
  other two playing together against it): ``S_own``, ``W``, ``E``;
* with S holding the spare hand instead of its own (W and E keep theirs, S's own hand is
  out of play): S's paranoid value ``S_spare``.

``S_spare - S_own`` is what the exchange gains the first player on that deal, the later
players' own exchanges left aside.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import polars as pl

from ..cards import Suit, ace_high, format_deal, format_hand
from ..solver import Solver, make_position
from ..solver.position import parse_trump_text
from .deals import NEUF_SEATS, NEUF_SPARE, neuf_deal
from .defaults import TRUMP_CYCLE
from .store import Chunk

__all__ = ["DEALER", "FIRST", "TRUMP_CYCLE", "VALUES", "NeufStudy", "parse_trumps", "value_column"]

DEALER, FIRST = "E", "S"
VALUES: tuple[str, ...] = ("S_own", "S_spare", "W", "E")
"""What is solved for each trump, in the per-deal columns ``<value>_<trump>``."""

@functools.cache
def _process_solver(table_mb: float) -> Solver:
    """One solver per process (and table size), its table reused from deal to deal."""
    return Solver(table_mb)


def value_column(value: str, trump: str) -> str:
    """The per-deal column of ``value`` (one of :data:`VALUES`) with ``trump``: ``S_own_H``."""
    return f"{value}_{trump}"


def parse_trumps(text: str) -> tuple[str, ...]:
    """``H,D,C,S,NT`` (any of them, any order, no repeats) as trump codes."""
    codes = []
    for item in text.replace(" ", ",").split(","):
        if not item:
            continue
        trump = parse_trump_text(item)
        code = "NT" if trump is None else trump.letter
        if code in codes:
            raise ValueError(f"trump {code} is named twice in {text!r}")
        codes.append(code)
    if not codes:
        raise ValueError("name at least one trump: S, H, D, C or NT")
    return tuple(codes)


@dataclass(frozen=True)
class NeufStudy:
    """E deals; S, left of dealer, exchanges first and leads; every trump of ``trumps`` solved."""

    seed: int
    trumps: tuple[str, ...] = TRUMP_CYCLE
    table_mb: float = 64.0
    game: ClassVar[str] = "neuf"

    def __post_init__(self) -> None:
        object.__setattr__(self, "trumps", parse_trumps(",".join(self.trumps)))

    @property
    def solves_per_deal(self) -> int:
        return len(VALUES) * len(self.trumps)

    def identity(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "dealer": DEALER,
            "first": FIRST,
            "trumps": list(self.trumps),
            "values": "paranoid tricks of S, W, E as dealt (S leads); of S holding the spare hand",
        }

    def solve_chunk(self, chunk: Chunk) -> pl.DataFrame:
        solver = _process_solver(self.table_mb)
        numbers = list(range(chunk.start, chunk.stop))
        texts: list[str] = []
        spares: list[str] = []
        values = np.zeros((len(numbers), len(self.trumps), len(VALUES)), dtype=np.int8)
        for row, number in enumerate(numbers):
            dealt = neuf_deal(self.seed, number)
            own = {seat: dealt[seat] for seat in NEUF_SEATS}
            swapped = {**own, FIRST: dealt[NEUF_SPARE]}
            texts.append(format_deal(own, NEUF_SEATS, strength=ace_high))
            spares.append(format_hand(dealt[NEUF_SPARE], ace_high))
            for k, code in enumerate(self.trumps):
                trump = None if code == "NT" else Suit.parse(code)
                as_dealt = make_position("neuf", own, trump, FIRST)
                with_spare = make_position("neuf", swapped, trump, FIRST)
                s_own, w, e = (solver.value(as_dealt, seat) for seat in NEUF_SEATS)
                values[row, k] = (s_own, solver.value(with_spare, FIRST), w, e)
        columns: dict[str, Any] = {"deal": pl.Series(numbers, dtype=pl.Int64), "hands": texts, "spare": spares}
        for k, code in enumerate(self.trumps):
            for v, value in enumerate(VALUES):
                columns[value_column(value, code)] = pl.Series(values[:, k, v], dtype=pl.Int8)
        return pl.DataFrame(columns)
