"""A whole analysis: solve (resuming what the folder holds), write the data, fit, report.

:func:`analyze_elyigit` and :func:`analyze_neuf` are what ``nines analyze`` runs; they
take an :class:`~.executors.Executor` so the same call works on this machine or on Ray.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from .defaults import DEFAULT_CHUNK, DEFAULT_DEALS
from .elyigit import ElyigitStudy, feature_rows
from .elyigit_report import ElyigitAnalysis, analyse_elyigit, write_elyigit_report
from .executors import Executor, Study
from .neuf import NeufStudy
from .neuf_report import NeufAnalysis, analyse_neuf, write_neuf_report
from .report import RunContext
from .runner import RunStats, run_study
from .store import RunFolder

__all__ = [
    "DEALS_FILE",
    "DEFAULT_CHUNK",
    "DEFAULT_DEALS",
    "ROWS_FILE",
    "Outcome",
    "analyze_elyigit",
    "analyze_neuf",
]

DEALS_FILE = "deals.parquet"
ROWS_FILE = "rows.parquet"


@dataclass(frozen=True)
class Outcome:
    """What a call produced: the run's timing, the per-deal data, the fitted analysis, the files."""

    stats: RunStats
    deals: pl.DataFrame
    analysis: ElyigitAnalysis | NeufAnalysis
    files: list[Path]


def _solve(
    study: Study,
    deals: int,
    out: Path,
    executor: Executor,
    chunk_size: int,
    progress: bool,
    console: Console | None,
) -> tuple[RunFolder, pl.DataFrame, RunStats, list[dict[str, Any]]]:
    folder = RunFolder(out, {**study.identity(), "chunk_size": chunk_size})
    data, stats = run_study(study, deals, folder, executor, chunk_size, progress=progress, console=console)
    data.write_parquet(out / DEALS_FILE)
    history = folder.record_run(deals, stats.to_dict())
    return folder, data, stats, history


def analyze_elyigit(
    deals: int,
    seed: int,
    out: Path,
    executor: Executor,
    *,
    chunk_size: int = DEFAULT_CHUNK["elyigit"],
    progress: bool = True,
    console: Console | None = None,
    command: str = "",
) -> Outcome:
    """Deal, solve every trump with N declaring, fit the models and write the report into ``out``."""
    study = ElyigitStudy(seed)
    folder, data, stats, history = _solve(study, deals, out, executor, chunk_size, progress, console)
    rows = feature_rows(data)
    rows.write_parquet(out / ROWS_FILE)
    analysis = analyse_elyigit(rows)
    context = RunContext(
        folder.identity, stats, command or f"nines analyze elyigit --deals {deals} --seed {seed}", history
    )
    files = write_elyigit_report(analysis, out, context)
    return Outcome(stats, data, analysis, [out / DEALS_FILE, out / ROWS_FILE, *files])


def analyze_neuf(
    deals: int,
    seed: int,
    out: Path,
    executor: Executor,
    *,
    trumps: tuple[str, ...] | None = None,
    chunk_size: int = DEFAULT_CHUNK["neuf"],
    progress: bool = True,
    console: Console | None = None,
    command: str = "",
) -> Outcome:
    """Deal, solve the exchange and the three players' values for each trump, and report into ``out``."""
    study = NeufStudy(seed) if trumps is None else NeufStudy(seed, trumps)
    folder, data, stats, history = _solve(study, deals, out, executor, chunk_size, progress, console)
    analysis = analyse_neuf(data, study.trumps)
    context = RunContext(folder.identity, stats, command or f"nines analyze neuf --deals {deals} --seed {seed}", history)
    files = write_neuf_report(analysis, out, context)
    return Outcome(stats, data, analysis, [out / DEALS_FILE, *files])
