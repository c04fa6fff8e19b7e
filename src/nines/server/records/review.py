"""The review of a table's finished deals (``nines.review``), for the deal summary and the replay.

Only a finished deal is reviewed: the review knows every hand, so a deal still in play
is refused.  What the review needs is copied under the table's lock and the work is done
on a small pool of threads, off the event loop: the solver's compiled search releases
the GIL, so other tables go on meanwhile (``Reviews(processes=True)`` does the work in
worker processes instead, so that not even the review's Python holds the GIL;
``benchmarks/review_bench.py --event-loop`` measures both).  Each deal is reviewed once: the work starts
as soon as the deal ends (so that the review is ready when the summary asks for it) and
the answer is kept for later requests.

Reviews are background work: their threads (and worker processes) run at a lower scheduling
priority (``REVIEW_NICENESS``), so that on a busy machine the moves of the tables in play come
first and the reviews take the time left over.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ...games import get_game
from ...games.contract import Reason
from ...review import ReviewError, Solvers, review_deal
from ...review.discards import review_rummy_deal
from ..logs import log
from ..runtime import lower_priority, watch_server
from ..store.database import Store
from ..store.people import ReviewStat
from ..tables.table import Table, TableError
from ..wire.messages import ErrorCode

__all__ = ["REVIEW_WORKERS", "ReviewJob", "Reviews", "review_job"]

REVIEW_WORKERS = 2
"""Threads reviewing deals; each holds its own solvers (a few tens of megabytes at most)."""

REVIEW_NICENESS = 10
"""How much lower than the server's the review threads' scheduling priority is (Linux ``nice``)."""

MOST_WAITING = 16
"""Reviews started when deals end that may wait or run at once.  Deals end faster than two workers at a
lower priority review them on a busy server (20 tables of computer players at Le Neuf, busy machine: a
review asked for after 30 s of play waited 34 s behind the others, and the queue grew without end);
a deal that ends while this many wait is reviewed when someone asks for it.  Reviews asked for may wait
twice as many; beyond that the request is refused (``limit``), to be asked again in a moment."""

MOST_TABLES_SEEN = 10_000
"""Tables whose last reviewed deal is remembered. A table that leaves memory unfinished (closed for idleness)
never says goodbye to the reviews, so the oldest are dropped beyond this; one dropped and met again is treated
as met for the first time, which reviews nothing twice."""

KEEP_DEALS = 500
"""Reviews kept in memory, the least recently asked for dropped first (a review is 6 to 9 kB of JSON, some
tens of kilobytes as Python objects; one dropped is computed again if asked for)."""


@dataclass(frozen=True)
class ReviewJob:
    """What reviewing one finished deal needs, taken from the table (no reference to it): the finished deals'
    records are the match's kept ones, shared, never changed (``GameState.shared_record``), not copies; a
    worker process gets them pickled."""

    table_id: str
    number: int
    game: str
    options: Any
    deals: tuple[Mapping[str, Any], ...]
    """the deal records up to this one (rummy replays the match from its start)"""
    source: Any = None
    """what the match was dealt from (rummy only)"""
    people: Mapping[str, str] = field(default_factory=dict)
    """the named people at the table, by seat, whose statistics the review adds to"""


def _deal_source(table: Table) -> Any:
    return table.source  # the match secret, or the chosen seed of solo practice (0 included)


def review_job(table: Table, number: int) -> ReviewJob:
    """The job for deal ``number`` of ``table`` (call under the table's lock); refuses a deal in play."""
    deals = table.record_now()["deals"]  # shared: finished deals' records never change, so the job keeps them
    if not 1 <= number <= len(deals):
        raise TableError(ErrorCode.NOT_FOUND, Reason("server.deal_range", f"this match has deals 1 to {len(deals)}", deals=len(deals)))
    if deals[number - 1].get("result") is None:
        raise TableError(ErrorCode.FORBIDDEN, Reason("server.review_after", "a deal is reviewed once it is over (the review shows every hand)"))
    game = table.spec.id
    options = table.spec.options_from_record(table.options)
    kept = tuple(deals[:number]) if game == "rummy" else (deals[number - 1],)
    counted = not getattr(table, "practice", False)  # solo practice from a chosen seed is left out of statistics
    people = {s.seat: s.person for s in table.seats.values() if s.kind == "human" and s.person} if counted else {}
    source = _deal_source(table) if game == "rummy" else None
    # not copied: a copy of the deal, on the event loop at every deal's end, was 3% of its time under load
    return ReviewJob(table.id, number, game, options, kept, source, people)


def review_stats(job: ReviewJob, review: Mapping[str, Any]) -> list[ReviewStat]:
    """Each named person's cards in the reviewed deal (trick games; a seat that chose no card is left out)."""
    if job.game == "rummy":
        return []
    stats = []
    for seat, person in job.people.items():
        total = review.get("seats", {}).get(seat)
        if total and total["cards"]:
            stats.append(ReviewStat(job.table_id, job.number, seat, person, job.game, total["cards"], total["errors"],
                                    total["cost"], total["unscored"]))
    return stats


_local = threading.local()


def _ready() -> None:
    """Nothing: a worker process that runs it has started (see :meth:`Reviews.start`)."""


def yield_to_play() -> None:
    """Lower the priority of this review thread or process (Linux schedules threads apart), so that the
    tables in play never wait for a review's search."""
    lower_priority(REVIEW_NICENESS)


def start_worker(server: int) -> None:
    """A review process starts: its priority lowered, and a watch that ends it when the server ``server``
    (a process id) ends.  A server killed outright (``kill -9``, the kernel out of memory) once left its
    review workers, their forkserver and the resource tracker running for ever (about 440 MB by the load
    benchmark's memory split): a worker waiting for its next job never noticed the server go (the pool's
    queues are pickled to each worker whole, both ends, so no end of file comes)."""
    yield_to_play()
    watch_server(server)


def run_job(job: ReviewJob) -> dict[str, Any]:
    """Review the deal (on a worker thread); the review's JSON."""
    if job.game == "rummy":
        start = get_game("rummy").new_match(job.options, job.source)
        review = review_rummy_deal(start, list(job.deals), job.number - 1)
    else:
        solvers = getattr(_local, "solvers", None)
        if solvers is None:
            solvers = _local.solvers = Solvers()
        review = review_deal(job.game, job.options, job.deals[-1], solvers=solvers)
    return {"table": job.table_id, **review.to_json()}


class Reviews:
    """Reviews of finished deals: started when a deal ends, computed on worker threads, kept."""

    def __init__(
        self, store: Store | None = None, workers: int = REVIEW_WORKERS, keep: int = KEEP_DEALS, processes: bool = False
    ) -> None:
        self._store = store
        self._workers = workers
        self._processes = None
        if processes:
            context = multiprocessing.get_context("forkserver")
            # the forkserver imports the reviews' modules once, and every worker it forks has them: each
            # worker once imported them itself (about a second of CPU each, while the tables were moving)
            context.set_forkserver_preload(["__main__", __name__])
            self._processes = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=start_worker,
                                                  initargs=(os.getpid(),))
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="review", initializer=yield_to_play)
        self._keep = keep
        self._done: OrderedDict[tuple[str, int], Future[dict[str, Any]]] = OrderedDict()
        self._seen: dict[str, int] = {}  # the last deal started for each table, the least recently moved first
        self._most_seen = MOST_TABLES_SEEN

    def start(self) -> None:
        """Start the worker processes now, with the server, rather than at the first deal's end: their
        start-up (the forkserver importing the reviews' modules) is then not paid while the tables move,
        and the first review does not wait for it."""
        if self._processes is not None:
            for _ in range(self._workers):
                self._processes.submit(_ready)

    def submit(self, job: ReviewJob, *, asked: bool = True) -> Future[dict[str, Any]] | None:
        """The deal's review, started now if it is not known yet (call on the event loop).  ``asked``: a
        person asks for it (refused if too many wait); otherwise a deal has just ended (``None``: too many
        wait, it is reviewed when asked for).  See :data:`MOST_WAITING`."""
        key = (job.table_id, job.number)
        future = self._done.get(key)
        if future is None:
            waiting = sum(1 for kept in self._done.values() if not kept.done())
            if waiting >= MOST_WAITING * (2 if asked else 1):
                if not asked:
                    return None
                raise TableError(ErrorCode.LIMIT, Reason("server.review_busy", f"{waiting} reviews are being worked out "
                                                         "just now; ask again in a moment", count=waiting))
            future = self._done[key] = self._pool.submit(self._run, job)
            while len(self._done) > self._keep:
                self._done.popitem(last=False)
        self._done.move_to_end(key)
        return future

    def _run(self, job: ReviewJob) -> dict[str, Any]:
        """On a worker thread: the review, and the statistics of the people at the table."""
        review = self._processes.submit(run_job, job).result() if self._processes is not None else run_job(job)
        stats = review_stats(job, review)
        if stats and self._store is not None:
            try:
                self._store.add_review_stats(stats)
            except Exception:  # noqa: BLE001 - the review stands even if its statistics could not be kept
                log.exception("review.stats_failed", table=job.table_id, deal=job.number)
        return review

    def started(self, table_id: str, number: int) -> bool:
        """Whether deal ``number`` of the table is reviewed or being reviewed."""
        return (table_id, number) in self._done

    async def get(self, job: ReviewJob) -> dict[str, Any]:
        future = self.submit(job)
        assert future is not None  # asked for: a future, or refused
        try:
            return await asyncio.wrap_future(future)
        except ReviewError as error:  # the table's own log did not replay: a fault of ours
            log.warning("review.failed", table=job.table_id, deal=job.number, error=str(error))
            self._done.pop((job.table_id, job.number), None)
            raise TableError(ErrorCode.CONFLICT, Reason("server.review_failed", f"deal {job.number} could not be reviewed: {error}",
                                                        deal=job.number)) from None

    def after_action(self, table: Table) -> None:
        """Start reviewing the deals that have just ended (call under the table's lock, after a move)."""
        state = table.state
        number = table.deal_number()
        if number is None:
            return
        finished = number if state.is_over else number - 1
        seen = self._seen.pop(table.id, None)  # set again below, as the most recently moved
        if seen is None:
            # a table met for the first time (a new table, or one rebuilt at start-up): the move
            # just made ended a deal if the match is over or the next deal has no action yet
            fresh = state.is_over or not getattr(state.deal, "actions", True)
            seen = finished - 1 if fresh else finished
        if len(self._seen) >= self._most_seen:
            del self._seen[next(iter(self._seen))]
        if finished <= seen:
            self._seen[table.id] = seen
            return
        self._seen[table.id] = finished
        for deal in range(seen + 1, finished + 1):
            try:
                self.submit(review_job(table, deal), asked=False)
            except TableError:
                continue  # a deal thrown in before it was dealt out has nothing to review
        if state.is_over:
            self._seen.pop(table.id, None)

    def close(self) -> None:
        """Drop the reviews not begun, stop the worker processes and wait for them to end.

        Not waiting let the server exit first, and workers that outlive their server never end: they hold
        the ends of their own queues, and their forkserver waits for them.  A review under way is stopped,
        not awaited: it only fills a cache (asked for again, it is computed again), and on a busy machine a
        worker's review at its low priority took over 20 s to end."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            workers = list(self._processes._processes.values())  # (the executor has no public list of them)
            self._processes.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(timeout=10)
            self._processes.shutdown(wait=True)
