"""Solving many positions at once, spread over threads (the core releases the GIL)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .api import DEFAULT_TABLE_MB, Solver, SolveResult
from .errors import SolverInputError
from .position import Position

__all__ = ["solve_many"]

PROGRESS_FROM = 20
"""Batches shorter than this finish too fast to need a progress bar."""


def solve_many(
    positions: Iterable[Position],
    workers: int | None = None,
    progress: bool = True,
    *,
    player: str | None = None,
    scores: bool = False,
    table_mb: float = DEFAULT_TABLE_MB,
) -> list[SolveResult]:
    """Solve every position, in parallel on ``workers`` threads (default: one per core).

    Each thread has its own :class:`Solver` and so its own table of at most ``table_mb``
    megabytes.  Results come back in the order of ``positions``.  A Rich progress bar is
    shown for long batches when ``progress`` is true.
    """
    items = list(positions)
    for i, item in enumerate(items):
        if not isinstance(item, Position):
            raise SolverInputError(
                f"position {i} is a {type(item).__name__}; build positions with "
                "nines.solver.make_position or position_from_deal"
            )
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise SolverInputError(f"workers must be at least 1, not {workers}")
    local = threading.local()

    def work(position: Position) -> SolveResult:
        solver = getattr(local, "solver", None)
        if solver is None:
            solver = local.solver = Solver(table_mb)
        return solver.solve(position, player=player, scores=scores)

    results: list[SolveResult] = []
    with ThreadPoolExecutor(max_workers=min(workers, max(1, len(items)))) as pool:
        mapped = pool.map(work, items)
        if progress and len(items) >= PROGRESS_FROM:
            columns = (
                TextColumn("solving"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
            )
            with Progress(*columns, transient=True) as bar:
                task = bar.add_task("solve", total=len(items))
                for result in mapped:
                    results.append(result)
                    bar.advance(task)
        else:
            results.extend(mapped)
    return results
