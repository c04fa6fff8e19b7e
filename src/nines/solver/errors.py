"""Errors of the solver's Python layer: bad input is a ``ValueError`` that says what to fix."""

from __future__ import annotations

__all__ = ["SolverInputError", "SolverNodeLimit"]


class SolverInputError(ValueError):
    """A position the solver cannot take: unknown game or form, a malformed deal, hands of
    unequal size, wrong card counts, a card dealt twice, an illegal card on the table.

    The message names the problem and what would be accepted instead.
    """


class SolverNodeLimit(RuntimeError):
    """A solve gave up at the node limit its caller set (``max_nodes``).

    Nothing half-searched is kept: the table holds only finished answers, so the same
    Solver can go on (or try again with a larger limit) and gets exact results.
    """

    @classmethod
    def after(cls, nodes: int, max_nodes: int | None) -> SolverNodeLimit:
        return cls(f"gave up after {nodes:,} nodes (max_nodes={max_nodes:,})")
