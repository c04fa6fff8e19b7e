# Types of the compiled solver core (the C sources are in core/; docs/solver.md describes them).

from collections.abc import Sequence
from typing import TypeAlias

RULE_FOLLOW: int
RULE_ELYIGIT: int
ENTRY_BYTES: int
BUCKET_BYTES: int

Masks: TypeAlias = Sequence[int]  # four suit masks, bit r the card of strength r

class Solver:  # a solver with its own transposition table (one per thread)
    def __init__(
        self, table_bytes: int = ..., partition: bool = ..., table: bool = ..., bounds: bool = ...
    ) -> None: ...
    def solve(
        self,
        np: int,
        rule: int,
        trump: int,
        hands: Sequence[Masks],
        leader: int,
        played: Sequence[int],
        maxmask: int,
        guess: int = ...,
        max_nodes: int = ...,
    ) -> tuple[int, int]: ...  # (MAX tricks, nodes); the tricks are -1 when the search gave up at max_nodes
    def score(
        self,
        np: int,
        rule: int,
        trump: int,
        hands: Sequence[Masks],
        leader: int,
        played: Sequence[int],
        maxmask: int,
        value: int = ...,
        max_nodes: int = ...,
    ) -> tuple[list[tuple[int, int]] | None, int]: ...  # ([(card, MAX tricks)], nodes); None: gave up
    def clear(self) -> None: ...
    def info(self) -> dict[str, int]: ...
    def stats(self) -> dict[str, int | list[int]]: ...

# the legal cards (codes) of a hand with these cards on the table
def legal(rule: int, trump: int, hand: Masks, table: Sequence[int]) -> list[int]: ...
