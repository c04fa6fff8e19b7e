"""The solver's Python face: a :class:`Solver` with its own transposition table, and the
one-call helpers :func:`solve` and :func:`score_cards`.

All the searching happens in the compiled core (``nines.solver._core``); this module
only checks positions and turns cards into bitmasks and numbers back into results.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Suit
from . import _core
from .errors import SolverInputError, SolverNodeLimit
from .position import Position, make_position

__all__ = [
    "DEFAULT_TABLE_MB",
    "MAX_DEFAULT_TABLE_MB",
    "SolveResult",
    "Solver",
    "TableInfo",
    "legal_cards",
    "score_cards",
    "solve",
]

DEFAULT_TABLE_MB = 64
"""Transposition table limit of a :class:`Solver` unless told otherwise (per solver, so per thread)."""
MAX_DEFAULT_TABLE_MB = 256


def _limit(max_nodes: int | None) -> int:
    """The core's node limit: 0 for none."""
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise SolverInputError(f"max_nodes must be a positive whole number (or None for no limit), not {max_nodes!r}")
    return max_nodes


@dataclass(frozen=True)
class SolveResult:
    """Exact trick counts of a position, every remaining trick played out.

    ``tricks`` maps each side (``NS``, ``EW``) or, in the paranoid forms, each seat to the
    tricks it takes of the remaining ones (the trick in progress included).  In the
    paranoid forms each seat's number is its own value against all the others together,
    so they need not add up.  ``scores``, when asked for, maps every legal card of the
    seat to play to the tricks that card leads to for that seat's side (or that seat).
    """

    position: Position
    tricks: dict[str, int]
    scores: dict[Card, int] | None = None
    nodes: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def remaining(self) -> int:
        return self.position.tricks_left

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object: ``{"tricks": {...}}`` and ``"scores"`` if computed."""
        out: dict[str, Any] = {"tricks": dict(self.tricks)}
        if self.scores is not None:
            out["scores"] = {card.code: value for card, value in self.scores.items()}
        return out


@dataclass(frozen=True)
class TableInfo:
    """Size and use of a solver's transposition table."""

    limit_bytes: int
    active_bytes: int
    """the part of the table in use for the current deal: it starts small and doubles as it fills"""
    table_bytes: int
    buckets: int
    buckets_used: int
    entries: int
    last_nodes: int
    total_nodes: int
    replaced_buckets: int
    last_tricks: int = 0
    """tricks completed in the last call's search (DDS reports its search effort in these); 0 from a
    core built before it counted them"""


class Solver:
    """An exact solver with its own transposition table.

    The table holds at most ``table_mb`` megabytes (allocated on first use, pages touched
    only as they fill), replaces old entries when full, and is emptied automatically when
    a position is not a continuation of the previous deal (or the game, trump or counted
    side changes).  A Solver is not shared between threads: give each thread its own
    (:func:`nines.solver.solve_many` does).  ``partition=False`` keys the table on every
    card instead of only the relevant ones, and ``bounds=False`` skips the sure-trick and
    later-trick cutoffs: both are slower and kept to cross-check the fast path.
    """

    def __init__(self, table_mb: float = DEFAULT_TABLE_MB, *, partition: bool = True, bounds: bool = True) -> None:
        if not table_mb > 0:
            raise SolverInputError(f"table_mb must be positive, not {table_mb!r}")
        self._core = _core.Solver(
            table_bytes=max(4096, int(table_mb * 1024 * 1024)), partition=partition, bounds=bounds
        )

    # -- the raw numbers -------------------------------------------------------------------
    def value(self, position: Position, side: str, *, max_nodes: int | None = None) -> int:
        """Tricks ``side`` (a side in partnerships, a seat in paranoid forms) takes of those left.

        With ``max_nodes`` the search gives up past that many nodes and raises
        :class:`SolverNodeLimit` (a caller with a time budget, such as a computer player).
        """
        if side not in position.sides:
            raise SolverInputError(f"{side!r} is not a side here; the sides are {' '.join(position.sides)}")
        mask = position.maxmask(side)
        value, nodes = self._core.solve(*position.core_args(), mask, -1, _limit(max_nodes))
        if value < 0:
            raise SolverNodeLimit.after(nodes, max_nodes)
        return int(value)

    def score_cards(
        self, position: Position, *, max_nodes: int | None = None, value: int | None = None
    ) -> dict[Card, int]:
        """Every legal card of the seat to play, mapped to the tricks it leads to for that
        seat's side (partnerships) or that seat alone (paranoid forms).  ``max_nodes`` as
        for :meth:`value`.  ``value``, the position's value for the same side when it is
        already known (a review going through a deal knows it from the card before), bounds
        each card's search; it must be exact."""
        if value is not None and not 0 <= value <= position.tricks_left:
            raise SolverInputError(f"value must be between 0 and the {position.tricks_left} tricks left, not {value!r}")
        scores, nodes = self._scores(position, _limit(max_nodes), value)
        if scores is None:
            raise SolverNodeLimit.after(nodes, max_nodes)
        return scores

    def _scores(self, position: Position, limit: int, value: int | None = None) -> tuple[dict[Card, int] | None, int]:
        """The card scores and the nodes searched; ``None`` for the scores past the core's ``limit``."""
        g = position.gdef
        mover = position.to_play
        counted = "NS" if position.form == "partners" else mover
        known = -1 if value is None else value
        if value is not None and position.form == "partners" and position.side_of(mover) != "NS":
            known = position.tricks_left - value  # the core counts NS
        pairs, nodes = self._core.score(*position.core_args(), position.maxmask(counted), known, limit)
        if pairs is None:
            return None, int(nodes)
        if position.form == "partners":
            rem = position.tricks_left
            flip = position.side_of(mover) != "NS"
            scores = {g.card(code): (rem - v if flip else v) for code, v in pairs}
        else:
            scores = {g.card(code): v for code, v in pairs}
        return dict(sorted(scores.items(), key=lambda item: (-item[1], item[0]))), int(nodes)

    # -- whole results ---------------------------------------------------------------------
    def solve(
        self, position: Position, *, player: str | None = None, scores: bool = False, max_nodes: int | None = None
    ) -> SolveResult:
        """Exact tricks of every side (or of ``player`` alone in the paranoid forms).

        ``max_nodes`` bounds the whole call (every seat's value and the card scores
        together); past it the call raises :class:`SolverNodeLimit`.
        """
        start = time.perf_counter()
        _limit(max_nodes)  # a bad limit is refused before any search
        nodes = 0

        def budget() -> int:
            """What is left of the caller's limit for the next search (0: no limit)."""
            if max_nodes is None:
                return 0
            if nodes >= max_nodes:
                raise SolverNodeLimit.after(nodes, max_nodes)
            return max_nodes - nodes

        def searched(value: int, n: int) -> int:
            nonlocal nodes
            nodes += n
            if value < 0:
                raise SolverNodeLimit.after(nodes, max_nodes)
            return int(value)

        tricks: dict[str, int] = {}
        args = position.core_args()
        rem = position.tricks_left
        if position.form == "partners":
            if player is not None:
                raise SolverInputError("player= picks the seat of a paranoid value; partnerships count sides")
            value = searched(*self._core.solve(*args, position.maxmask("NS"), -1, budget()))
            tricks = {"NS": value, "EW": rem - value}
        else:
            seats = position.seats
            if player is not None:
                name = player.strip().upper()
                if name not in seats:
                    raise SolverInputError(f"player {player!r} is not a seat here; the seats are {' '.join(seats)}")
                seats = (name,)
            for seat in seats:
                tricks[seat] = searched(*self._core.solve(*args, position.maxmask(seat), -1, budget()))
        card_scores = None
        if scores:
            card_scores, n = self._scores(position, budget())
            nodes += n
            if card_scores is None:
                raise SolverNodeLimit.after(nodes, max_nodes)
        return SolveResult(position, tricks, card_scores, nodes, time.perf_counter() - start)

    def clear(self) -> None:
        """Empty the transposition table (it is emptied on its own between unrelated deals)."""
        self._core.clear()

    def info(self) -> TableInfo:
        """The table's size and use and the node counts (it counts the table's entries: a walk of the
        whole table; for the nodes of the last search alone, :attr:`last_nodes`)."""
        return TableInfo(**self._core.info())

    @property
    def last_nodes(self) -> int:
        """Nodes the last search visited (``info().last_nodes``, without walking the table)."""
        nodes = self._core.stats()["nodes"]
        assert isinstance(nodes, int)
        return nodes


def legal_cards(position: Position) -> list[Card]:
    """The cards the seat to play may play now, by the rule the solver searches with."""
    g = position.gdef
    codes = _core.legal(
        g.rule,
        -1 if position.trump is None else position.trump.index,
        g.masks(position.hands[position.to_play]),
        [g.code(card) for card in position.played],
    )
    return sorted(g.card(code) for code in codes)


def solve(
    game: str,
    hands: Mapping[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card] = (),
    *,
    form: str | None = None,
    player: str | None = None,
    scores: bool = False,
    solver: Solver | None = None,
) -> SolveResult:
    """Solve one position exactly (see :class:`SolveResult`).

    ``form`` is Le Neuf's ``three``, ``partners`` or ``individual`` (by default 3 hands mean
    ``three`` and 4 mean ``partners``); Elyigit's Nines is always played in partnerships.
    """
    position = make_position(game, hands, trump, leader, played, form=form)
    return (solver or Solver()).solve(position, player=player, scores=scores)


def score_cards(
    game: str,
    hands: Mapping[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card] = (),
    *,
    form: str | None = None,
    solver: Solver | None = None,
) -> dict[Card, int]:
    """Tricks each legal card of the seat to play leads to, for that seat's side (or itself)."""
    position = make_position(game, hands, trump, leader, played, form=form)
    return (solver or Solver()).score_cards(position)
