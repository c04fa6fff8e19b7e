"""Exact perfect-information ("double dummy") solvers for the trick-taking games of Nines.

* ``elyigit``: Elyigit's Nines, four hands N E S W in partnerships, the compulsory
  follow-and-beat, trump and over-trump rule; tricks of ``NS`` and ``EW``.
* ``neuf`` three players (S W E): each player's *paranoid* value, the most tricks it
  takes when the other two play together against it.
* ``neuf`` four hands (N E S W): partnerships (bridge card play) by default, or with
  ``form="individual"`` each seat's paranoid value against the other three.

Positions may be endings (equal hands) or a trick in progress (``played``).  The search is
compiled C (:mod:`nines.solver._core`); see docs/solver.md for the conventions and
the techniques.

>>> from nines.cards import parse_deal
>>> from nines.solver import solve
>>> hands = parse_deal("N:9.-.-.- 8.-.-.- 7.-.-.- 6.-.-.-", "NESW", equal_sizes=True)
>>> solve("elyigit", hands, None, "N").tricks
{'NS': 1, 'EW': 0}
"""

from __future__ import annotations

from .api import DEFAULT_TABLE_MB, Solver, SolveResult, TableInfo, legal_cards, score_cards, solve
from .batch import solve_many
from .errors import SolverInputError, SolverNodeLimit
from .games import GAMES
from .position import Position, make_position, parse_trump_text, position_from_deal

__all__ = [
    "DEFAULT_TABLE_MB",
    "GAMES",
    "Position",
    "SolveResult",
    "Solver",
    "SolverInputError",
    "SolverNodeLimit",
    "TableInfo",
    "legal_cards",
    "make_position",
    "parse_trump_text",
    "position_from_deal",
    "score_cards",
    "solve",
    "solve_many",
]
