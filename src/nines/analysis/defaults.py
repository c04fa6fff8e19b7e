"""Defaults of ``nines analyze``, importable without loading numpy, polars or the solver."""

from __future__ import annotations

__all__ = ["DEFAULT_CHUNK", "DEFAULT_DEALS", "TRUMP_CYCLE"]

DEFAULT_DEALS = {"elyigit": 10_000, "neuf": 400}
"""A default run takes a minute or three on two cores (a Le Neuf deal costs ~50 Elyigit deals)."""
DEFAULT_CHUNK = {"elyigit": 250, "neuf": 5}
"""Deals per chunk: a second or two of solving, the unit of resuming and of progress."""
TRUMP_CYCLE: tuple[str, ...] = ("H", "D", "C", "S", "NT")
"""Le Neuf's standard trump cycle: the trumps a Le Neuf analysis solves unless told."""
