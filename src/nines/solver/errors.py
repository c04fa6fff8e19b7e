"""Errors of the solver's Python layer: bad input is a ``ValueError`` that says what to fix."""

from __future__ import annotations

__all__ = ["SolverInputError"]


class SolverInputError(ValueError):
    """A position the solver cannot take: unknown game or form, a malformed deal, hands of
    unequal size, wrong card counts, a card dealt twice, an illegal card on the table.

    The message names the problem and what would be accepted instead.
    """
