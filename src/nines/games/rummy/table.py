"""The sets on the table: one run per suit, one monkey per rank, shared by everyone.

Rules applied (seed 002): only one run in each suit may exist across the table, and
everyone adds to it; only one monkey of each rank; after opening, a player may extend
either end of any run, complete any three-card monkey with its missing suit, and swap
the exact natural card for a wild in any set, taking the wild into hand.

A set is named by what makes it unique: a run by its suit letter (``H``), a monkey by
its rank character (``9``, ``T``).  A wild keeps the card it was declared as for the
rest of the hand; runs grow only at their ends, so no wild ever changes meaning.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ...cards import SUITS, Card, Rank, Suit
from .melds import HIGH_ACE, LOW_ACE, MONKEY_MAX, MonkeyShape, Placement, RunShape, Shape, card_at


def run_id(suit: Suit) -> str:
    return suit.value


def monkey_id(rank: Rank) -> str:
    return rank.char


def is_run_id(set_id: str) -> bool:
    return set_id in ("S", "H", "D", "C")


@dataclass
class TableSet:
    """A run or a monkey on the table, with the seat that laid it."""

    id: str
    kind: str  # "run" or "monkey"
    owner: str
    placements: list[Placement]
    suit: Suit | None = None  # runs
    rank: Rank | None = None  # monkeys
    low: int = 0  # runs: positions 1 (low ace) to 14 (high ace)
    high: int = 0

    @classmethod
    def from_shape(cls, shape: Shape, owner: str) -> TableSet:
        if isinstance(shape, RunShape):
            return cls(run_id(shape.suit), "run", owner, list(shape.placements), suit=shape.suit, low=shape.low, high=shape.high)
        assert isinstance(shape, MonkeyShape)
        return cls(monkey_id(shape.rank), "monkey", owner, list(shape.placements), rank=shape.rank)

    @property
    def cards(self) -> list[Card]:
        """The physical cards in the set."""
        return [p.card for p in self.placements]

    @property
    def wild_count(self) -> int:
        return sum(1 for p in self.placements if not p.is_natural)

    def text(self) -> str:
        return " ".join(p.text for p in self.placements)

    # -- what may be added ----------------------------------------------------------

    def openings(self) -> list[tuple[str, Card]]:
        """Where a card may be added: ``("low"|"high", card)`` for a run's ends, ``("suit", card)``
        for a three-card monkey's missing suit."""
        if self.kind == "run":
            assert self.suit is not None
            ends = []
            if self.low > LOW_ACE:
                ends.append(("low", card_at(self.suit, self.low - 1)))
            # A run from two to king takes an ace at either end; it is placed low (the
            # same card either way), and the run then waits for its high ace.
            if self.high < HIGH_ACE and not (self.low == 2 and self.high == 13):
                ends.append(("high", card_at(self.suit, self.high + 1)))
            return ends
        assert self.rank is not None
        if len(self.placements) >= MONKEY_MAX:
            return []
        present = {p.stands_for.suit for p in self.placements}
        return [("suit", Card(self.rank, s)) for s in SUITS if s not in present]

    def wants(self) -> list[Card]:
        """The cards (by meaning) that would extend this set now."""
        return [card for _, card in self.openings()]

    def add(self, placement: Placement) -> None:
        """Extend a run at the end its card belongs to, or complete a monkey."""
        for where, card in self.openings():
            if card != placement.stands_for:
                continue
            if where == "low":
                self.placements.insert(0, placement)
                self.low -= 1
            elif where == "high":
                self.placements.append(placement)
                self.high += 1
            else:
                self.placements.append(placement)
                self.placements.sort(key=lambda p: (p.stands_for.suit.index, p.card))  # type: ignore[union-attr]
            return
        raise ValueError(f"{placement.text} does not extend set {self.id}")

    def wild_for(self, natural: Card) -> int | None:
        """Index of the wild standing for ``natural`` (the lowest, if a run has the ace at both ends)."""
        for i, p in enumerate(self.placements):
            if not p.is_natural and p.stands_for == natural:
                return i
        return None

    def swap(self, natural: Card) -> Card:
        """Put the natural card in place of the wild standing for it; return the wild."""
        index = self.wild_for(natural)
        if index is None:
            raise ValueError(f"no wild stands for {natural.code} in set {self.id}")
        wild = self.placements[index].card
        self.placements[index] = Placement(natural, natural)
        return wild

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "owner": self.owner,
            "cards": [p.text for p in self.placements],
        }


@dataclass
class Table:
    """Every set laid this hand, in the order laid."""

    sets: dict[str, TableSet] = field(default_factory=dict)

    def __iter__(self) -> Iterator[TableSet]:
        return iter(self.sets.values())

    def __len__(self) -> int:
        return len(self.sets)

    def get(self, set_id: str) -> TableSet | None:
        return self.sets.get(set_id)

    def run_suits(self) -> set[Suit]:
        return {s.suit for s in self.sets.values() if s.kind == "run" and s.suit is not None}

    def monkey_ranks(self) -> set[Rank]:
        return {s.rank for s in self.sets.values() if s.kind == "monkey" and s.rank is not None}

    @property
    def all_four_runs(self) -> bool:
        """Monkeys may be laid only once a run of every suit is on the table."""
        return len(self.run_suits()) == 4

    def open_suits(self) -> list[Suit]:
        """Suits with no run yet (a new run may be started only in these)."""
        taken = self.run_suits()
        return [s for s in SUITS if s not in taken]

    def open_ranks(self) -> list[Rank]:
        taken = self.monkey_ranks()
        return [r for r in Rank if r not in taken]

    def place(self, shape: Shape, owner: str) -> TableSet:
        table_set = TableSet.from_shape(shape, owner)
        assert table_set.id not in self.sets
        self.sets[table_set.id] = table_set
        return table_set

    def cards(self) -> list[Card]:
        return [card for s in self.sets.values() for card in s.cards]

    def copy(self) -> Table:
        return Table({
            k: TableSet(s.id, s.kind, s.owner, list(s.placements), s.suit, s.rank, s.low, s.high)
            for k, s in self.sets.items()
        })
