"""Running a tournament: matches in parallel worker processes, results in a fixed order.

``--deals N`` asks for N deals.  Matches are played in order of their number, each
under every seating; the tournament keeps the shortest run of matches ``0..K-1`` whose
deals add up to at least N (a match's deals counted once, however many seatings
replayed them).  Which matches count depends only on their results, so the numbers
are the same whatever the number of workers: more workers only start matches sooner
(and a few may be played and dropped at the end).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.managers
import queue as queue_module
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from .metrics import metric_for
from .play import GameSetup, JobResult, play_job
from .schedule import Job, jobs_for_match, seatings

Progress = Callable[[int], None]


@dataclass(frozen=True)
class TournamentConfig:
    setup: GameSetup
    lineup: tuple[str, ...]
    deals: int
    seed: int
    workers: int = 1

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("a tournament plays at least one deal")
        if self.workers < 1:
            raise ValueError("a tournament needs at least one worker")

    @property
    def rotations(self) -> int:
        return len(seatings(self.lineup))


@dataclass
class RawResults:
    config: TournamentConfig
    matches: list[list[JobResult]] = field(default_factory=list)  # by match, then by rotation
    abandoned: list[int] = field(default_factory=list)
    """Matches left out because some seating did not finish (see ``play.MAX_ACTIONS``)."""

    @property
    def deals(self) -> int:
        return sum(distinct_deals(jobs) for jobs in self.matches)


def finished(jobs: Iterable[JobResult]) -> bool:
    """Whether every seating of a match finished (else the match is abandoned)."""
    return all(job.finished for job in jobs)


def distinct_deals(jobs: Sequence[JobResult]) -> int:
    """A match's deals, counted once however many seatings replayed it (none if abandoned)."""
    if not finished(jobs):
        return 0
    return max((len(job.deals) for job in jobs), default=0)


class TournamentError(RuntimeError):
    """The tournament cannot go on (its matches do not finish)."""


class _Plan:
    """Which matches have been started and finished, and whether enough deals are in hand."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.rotations = config.rotations
        self.done: dict[int, dict[int, JobResult]] = {}
        self.started = 0
        self._guess = metric_for(config.setup.game).expected_deals_per_match

    def record(self, result: JobResult) -> None:
        self.done.setdefault(result.match, {})[result.rotation] = result

    def complete(self, match: int) -> bool:
        return len(self.done.get(match, {})) == self.rotations

    def deals_of(self, match: int) -> int:
        return distinct_deals(list(self.done[match].values()))

    def prefix_end(self) -> int | None:
        """K such that matches ``0..K-1`` are complete and hold at least N deals, once known."""
        complete = [m for m in self.done if self.complete(m)]
        abandoned = [m for m in complete if not finished(self.done[m].values())]
        if len(abandoned) >= 5 and 2 * len(abandoned) >= len(complete):
            raise TournamentError(
                f"{len(abandoned)} of {len(complete)} matches did not finish; these players cannot end a match here"
            )
        total = 0
        match = 0
        while self.complete(match):
            total += self.deals_of(match)
            match += 1
            if total >= self.config.deals:
                return match
        return None

    def want_more(self) -> bool:
        """Whether the matches started, at the average length seen so far, fall short of N deals."""
        finished = [m for m in range(self.started) if self.complete(m)]
        expected = sum(self.deals_of(m) for m in finished) / len(finished) if finished else self._guess
        estimate = sum(self.deals_of(m) if self.complete(m) else expected for m in range(self.started))
        return estimate < self.config.deals

    def start_next(self) -> list[Job]:
        jobs = jobs_for_match(self.config.seed, self.started, self.config.lineup)
        self.started += 1
        return jobs

    def results(self, end: int) -> RawResults:
        matches = [[self.done[m][r] for r in range(self.rotations)] for m in range(end)]
        kept = [jobs for jobs in matches if finished(jobs)]
        abandoned = [jobs[0].match for jobs in matches if not finished(jobs)]
        return RawResults(self.config, kept, abandoned)


def run(config: TournamentConfig, progress: Progress | None = None) -> RawResults:
    """Play the tournament; ``progress(n)`` hears of every ``n`` deals finished in any seating."""
    plan = _Plan(config)
    if config.workers == 1:
        tick = progress or (lambda n: None)
        while (end := plan.prefix_end()) is None:
            for job in plan.start_next():
                plan.record(play_job(config.setup, config.seed, job, on_deal=lambda: tick(1)))
        return plan.results(end)
    return plan.results(_run_parallel(plan, progress))


def _run_parallel(plan: _Plan, progress: Progress | None) -> int:
    config = plan.config
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(max_workers=config.workers, mp_context=context) as pool:
        ticker = _Ticker(progress, manager)
        in_flight: dict[Future[JobResult], Job] = {}
        try:
            while (end := plan.prefix_end()) is None:
                while len(in_flight) < 2 * config.workers and plan.want_more():
                    for job in plan.start_next():
                        in_flight[pool.submit(_worker, config.setup, config.seed, job, ticker.queue)] = job
                if not in_flight:  # pragma: no cover - want_more() keeps work in flight until the end
                    raise RuntimeError("the tournament has no match in progress and not enough deals")
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    in_flight.pop(future)
                    plan.record(future.result())
            for future in in_flight:
                future.cancel()
        finally:
            ticker.close()
    return end


def _worker(setup: GameSetup, seed: int, job: Job, ticks: Any) -> JobResult:
    return play_job(setup, seed, job, on_deal=lambda: ticks.put(1))


class _Ticker:
    """Forwards deal ticks from the worker processes (through a queue) to the progress callback."""

    def __init__(self, progress: Progress | None, manager: multiprocessing.managers.SyncManager) -> None:
        self.queue = manager.Queue()
        self.progress = progress
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._stop.is_set():
            try:
                n = self.queue.get(timeout=0.2)
            except queue_module.Empty:
                continue
            except (EOFError, OSError):
                return
            if self.progress is not None:
                self.progress(n)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
