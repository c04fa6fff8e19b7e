"""Tournaments: duplicate matches between computer players, in parallel, with statistics.

``run`` plays a tournament (:mod:`.runner`), ``summarise`` turns its results into per-player
numbers with 95% intervals (:mod:`.report`); ``nines tournament`` is the command line over both.
"""

from .metrics import METRICS, GameMetric, metric_for
from .play import GameSetup, JobResult, play_job
from .report import PlayerSummary, Summary, summarise
from .runner import RawResults, TournamentConfig, run
from .schedule import Job, derive_seed, seatings

__all__ = [
    "METRICS",
    "GameMetric",
    "GameSetup",
    "Job",
    "JobResult",
    "PlayerSummary",
    "RawResults",
    "Summary",
    "TournamentConfig",
    "derive_seed",
    "metric_for",
    "play_job",
    "run",
    "seatings",
    "summarise",
]
