"""The exact solver as the review uses it: one solver per counted side, and a node budget.

The solver keeps what it learnt of a deal (its transposition table) from one position to
the next as long as the cards only dwindle and the side it counts for stays the same; it
starts afresh when the counted side changes.  In the paranoid forms (three-player Le
Neuf, four alone) every seat counts for itself, so the review keeps a solver per seat and
each carries its knowledge through the deal.

The four-alone form can take minutes on some deals (four seats each against the other
three is a hard search), so a review there may be given a node budget per deal; a
position whose search would go past it is left unscored and the review says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..cards import Card, Suit
from ..solver import Solver, SolverNodeLimit, make_position
from ..solver.position import Position

__all__ = ["DEFAULT_BUDGETS", "Budget", "Solvers", "budget_for"]

DEFAULT_BUDGETS: Mapping[str, int | None] = {"three": None, "partners": None, "individual": 10_000_000}
"""Nodes a deal's review may search, by form (``None``: no limit).  Ten million nodes is
about 1.1 s of search on a quiet machine (about 9 million nodes a second; on 200 deals
played by the basic players the longest four-alone review took 1.5 s of CPU on a busy one,
and 88 of 10,400 cards, in 56 deals, went unscored); the other forms finish every deal
without a limit (the longest of 200 partnership deals: about 12 million nodes)."""

PLAY_SHARE = 4
"""A single position may use at most a quarter of the deal's budget, so that one very
hard position leaves something for the rest of the deal."""

MAIN_SHARE = 0.7
"""The cards are scored in the order played from the first 70% of the budget; once it is
spent, each later card gets a small allowance from the rest (:data:`TAIL_SHARE`), enough
for the short endings at the end of a deal, so that a deal whose first tricks are too
hard still has its last ones scored.  52 cards at most leave the whole under the budget."""

TAIL_SHARE = 200
"""Each card past the main part may search a 200th of the budget."""

TABLE_MB = 32
"""Transposition table of each solver: ample for one deal, and there may be one per seat."""


def budget_for(form: str, max_nodes: int | str | None = "default") -> int | None:
    """The node budget of a deal of ``form``: ``"default"`` takes :data:`DEFAULT_BUDGETS`."""
    if max_nodes == "default":
        return DEFAULT_BUDGETS.get(form)
    if max_nodes is None:
        return None
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ValueError(f"a node budget is a positive whole number, or None for no limit, not {max_nodes!r}")
    return max_nodes


@dataclass
class Budget:
    """What is left of one deal's node budget."""

    total: int | None
    used: int = 0
    gave_up: int = 0
    """positions left unscored for want of nodes"""

    def limit(self) -> int | None:
        """The node limit of the next search, or 0 when the budget is spent (``None``: no limit)."""
        if self.total is None:
            return None
        main = int(self.total * MAIN_SHARE)
        if self.used < main:
            return max(1, min(main - self.used, self.total // PLAY_SHARE))
        return max(0, min(self.total - self.used, max(1, self.total // TAIL_SHARE)))


@dataclass
class Solvers:
    """One :class:`Solver` per counted side, reused from deal to deal (not shared between threads)."""

    table_mb: float = TABLE_MB
    _by_side: dict[str, Solver] = field(default_factory=dict)

    def _for(self, position: Position, side: str) -> Solver:
        key = position.side_of(side) if position.form == "partners" else side
        solver = self._by_side.get(key)
        if solver is None:
            solver = self._by_side[key] = Solver(self.table_mb)
        return solver

    def scores(self, position: Position, budget: Budget, value: int | None = None) -> dict[Card, int] | None:
        """Every legal card of the seat to play and the tricks it leads to; ``None`` past the budget.
        ``value``: the position's value for the seat to play's side, when known (narrower searches)."""
        # partnerships are counted for NS whoever plays: one solver and one table for the deal
        solver = self._for(position, "N" if position.form == "partners" else position.to_play)
        limit = budget.limit()
        if limit == 0:
            budget.gave_up += 1
            return None
        try:
            return solver.score_cards(position, max_nodes=limit, value=value)
        except SolverNodeLimit:
            budget.gave_up += 1
            return None
        finally:
            budget.used += solver.last_nodes  # not info(): it walks the whole table (a tenth of a review)

    def value(self, position: Position, side: str, budget: Budget) -> int | None:
        """Tricks of ``side`` (a seat in the paranoid forms) from ``position``; ``None`` past the budget."""
        solver = self._for(position, "N" if position.form == "partners" else side)
        limit = budget.limit()
        if limit == 0:
            budget.gave_up += 1
            return None
        counted = "NS" if position.form == "partners" else side
        try:
            value = solver.value(position, counted, max_nodes=limit)
        except SolverNodeLimit:
            budget.gave_up += 1
            return None
        finally:
            budget.used += solver.last_nodes  # not info(): it walks the whole table (a tenth of a review)
        if position.form == "partners" and position.side_of(side) != "NS":
            return position.tricks_left - value
        return value


def position(
    game: str, form: str, hands: Mapping[str, tuple[Card, ...]], trump: Suit | None, leader: str, played: tuple[Card, ...] = ()
) -> Position:
    return make_position(game, hands, trump, leader, played, form=form)
