"""Analysis over many solved deals: deal from a seed, solve exactly in chunks (locally or on
Ray), resume, compute features, fit models and write a report folder.

* :func:`analyze_elyigit`: what the declarer's (and the dummy's) hand is worth in tricks in
  Elyigit's Nines, and seed 003's claim about voids, nines and long suits tested;
* :func:`analyze_neuf`: what Le Neuf's exchange gains, and what trumps do to the spread.

The conventions (who declares, who leads, what is solved) are in RULES.md, "Analysis".
"""

from __future__ import annotations

from .deals import deal_rng, elyigit_deal, hands_array, neuf_deal
from .elyigit import ElyigitStudy, feature_rows
from .elyigit_report import ElyigitAnalysis, analyse_elyigit
from .executors import LocalExecutor, RayExecutor, make_executor
from .neuf import NeufStudy
from .neuf_report import NeufAnalysis, analyse_neuf
from .pipeline import DEFAULT_CHUNK, DEFAULT_DEALS, Outcome, analyze_elyigit, analyze_neuf
from .runner import RunStats, default_out, run_study
from .stats import Fit, ols
from .store import Chunk, RunFolder, RunFolderError, plan_chunks

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
