"""Running a study: plan the chunks, skip those already in the folder, solve the rest.

The per-deal data of the whole run is returned in deal order once every chunk is there.
Timing counts only the deals solved by this call (resumed chunks cost nothing).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .executors import Executor, Study
from .store import RunFolder, plan_chunks

__all__ = ["RunStats", "run_study"]


@dataclass(frozen=True)
class RunStats:
    """What one call did: deals solved now and taken from earlier runs, and how fast."""

    deals: int
    solved: int
    resumed: int
    chunks_solved: int
    chunks_resumed: int
    solves: int
    seconds: float
    where: str

    @property
    def deals_per_second(self) -> float:
        return self.solved / self.seconds if self.seconds > 0 else 0.0

    @property
    def solves_per_second(self) -> float:
        return self.solves / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        if not self.solved:
            return f"{self.deals:,} deals, all {self.chunks_resumed} chunks from earlier runs: nothing to solve"
        text = (
            f"{self.solved:,} deals solved in {self.seconds:,.1f} s on {self.where}: "
            f"{self.deals_per_second:,.1f} deals/s, {self.solves_per_second:,.0f} exact solves/s"
        )
        if self.resumed:
            text += f" ({self.resumed:,} more deals resumed from {self.chunks_resumed} finished chunks)"
        return text

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "deals_per_second": self.deals_per_second, "solves_per_second": self.solves_per_second}


def run_study(
    study: Study,
    deals: int,
    folder: RunFolder,
    executor: Executor,
    chunk_size: int,
    *,
    progress: bool = True,
    console: Console | None = None,
) -> tuple[pl.DataFrame, RunStats]:
    """Solve deals ``0..deals-1`` of ``study`` into ``folder``; the per-deal data and timings."""
    chunks = plan_chunks(deals, chunk_size)
    finished = folder.finished()
    todo = [chunk for chunk in chunks if chunk not in finished]
    resumed = sum(chunk.size for chunk in chunks if chunk in finished)
    solved = sum(chunk.size for chunk in todo)
    start = time.perf_counter()
    if todo:
        columns = (
            TextColumn(f"[bold]{study.game}[/bold] deals"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, disable=not progress, transient=False) as bar:
            task = bar.add_task("solve", total=deals, completed=resumed, rate="")
            done = 0
            for chunk, table in executor.run(study, todo):
                folder.write_chunk(chunk, table)
                done += chunk.size
                elapsed = time.perf_counter() - start
                bar.update(task, advance=chunk.size, rate=f"{done / elapsed:,.0f} deals/s" if elapsed else "")
    seconds = time.perf_counter() - start
    data = folder.read_chunks(chunks)
    stats = RunStats(
        deals=deals,
        solved=solved,
        resumed=resumed,
        chunks_solved=len(todo),
        chunks_resumed=len(chunks) - len(todo),
        solves=solved * study.solves_per_deal,
        seconds=seconds,
        where=executor.describe(),
    )
    return data, stats


def default_out(game: str, seed: int) -> Path:
    """Where a run writes unless told: ``out/analysis/<game>-seed<seed>`` (ignored by git)."""
    return Path("out") / "analysis" / f"{game}-seed{seed}"
