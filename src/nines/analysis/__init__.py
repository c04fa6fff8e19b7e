"""Analysis over many solved deals: deal from a seed, solve exactly in chunks (locally or on
Ray), resume, compute features, fit models and write a report folder.

* :func:`analyze_elyigit`: what the declarer's (and the dummy's) hand is worth in tricks in
  Elyigit's Nines, and seed 003's claim about voids, nines and long suits tested;
* :func:`analyze_neuf`: what Le Neuf's exchange gains, and what trumps do to the spread.

The conventions (who declares, who leads, what is solved) are in docs/analysis/method.md.
The names below load on first use, so that ``nines`` starts without numpy, polars and
matplotlib unless it analyses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .defaults import DEFAULT_CHUNK, DEFAULT_DEALS

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors only
    from .deals import deal_rng, elyigit_deal, hands_array, neuf_deal
    from .elyigit import ElyigitStudy, feature_rows
    from .elyigit_report import ElyigitAnalysis, analyse_elyigit
    from .executors import LocalExecutor, RayExecutor, make_executor
    from .neuf import NeufStudy
    from .neuf_report import NeufAnalysis, analyse_neuf
    from .pipeline import Outcome, analyze_elyigit, analyze_neuf
    from .runner import RunStats, default_out, run_study
    from .stats import Fit, ols
    from .store import Chunk, RunFolder, RunFolderError, plan_chunks

_HOME = {
    "deal_rng": "deals",
    "elyigit_deal": "deals",
    "hands_array": "deals",
    "neuf_deal": "deals",
    "ElyigitStudy": "elyigit",
    "feature_rows": "elyigit",
    "ElyigitAnalysis": "elyigit_report",
    "analyse_elyigit": "elyigit_report",
    "LocalExecutor": "executors",
    "RayExecutor": "executors",
    "make_executor": "executors",
    "NeufStudy": "neuf",
    "NeufAnalysis": "neuf_report",
    "analyse_neuf": "neuf_report",
    "Outcome": "pipeline",
    "analyze_elyigit": "pipeline",
    "analyze_neuf": "pipeline",
    "RunStats": "runner",
    "default_out": "runner",
    "run_study": "runner",
    "Fit": "stats",
    "ols": "stats",
    "Chunk": "store",
    "RunFolder": "store",
    "RunFolderError": "store",
    "plan_chunks": "store",
}

__all__ = [
    "DEFAULT_CHUNK",
    "DEFAULT_DEALS",
    "Chunk",
    "ElyigitAnalysis",
    "ElyigitStudy",
    "Fit",
    "LocalExecutor",
    "NeufAnalysis",
    "NeufStudy",
    "Outcome",
    "RayExecutor",
    "RunFolder",
    "RunFolderError",
    "RunStats",
    "analyse_elyigit",
    "analyse_neuf",
    "analyze_elyigit",
    "analyze_neuf",
    "deal_rng",
    "default_out",
    "elyigit_deal",
    "feature_rows",
    "hands_array",
    "make_executor",
    "neuf_deal",
    "ols",
    "plan_chunks",
    "run_study",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
