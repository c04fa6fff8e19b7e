"""Where computer players think: in worker processes (or the server's own threads), or on the event loop when
they are quick.

A decision of a searching player (the expert, ismcts) takes tens or hundreds of milliseconds: it is
worked out elsewhere, so the tables keep moving meanwhile.  In a thread of the server that was not enough:
the searches are mostly Python, and Python runs one thread of a process at a time, so a person's move waited
for the interpreter lock behind the experts' thinking (300 people at the daily challenge: acknowledgements
p99 0.2 to 0.6 s), and all the experts of a process shared about one core however many the machine had.  So
``nines serve`` has them think in worker processes (:class:`Thinkers`, ``ServerConfig.thinking_processes``), as
many as :attr:`Limits.computer_threads`, at a lower scheduling priority (:data:`THINKING_NICENESS`): the
server's event loop comes first, and the experts take the cores it leaves.  A player is sent to a worker
with the view it decides from, and comes back with the decision and its own state as the worker left it
(its random generator, what it has learnt): it plays exactly as it would have in a thread, so a challenge's
computer players still make the same decisions for the same moves.  The tests think in threads (they start
faster, and a test can patch a player).

But a rule-based player
decides in well under a millisecond, and a thread does not make that cheaper: Python runs one thread at
a time, so the event loop waits for the decision all the same, and handing it to a thread and back
(a work queue, a future, the interpreter lock passed twice) cost the server more than the decision
itself (``benchmarks/server_load.py``).

So each kind of player (its class and name) is watched: once its last :data:`QUICK_IN_A_ROW`
decisions each took less than :data:`QUICK_S` of CPU time, it decides on the event loop; a decision
that takes longer sends that kind back to the threads until it is quick that many times again.  A kind
quick nearly always can still be slow now and then (rummy's basic player: under a millisecond mostly, but
a hand with many wilds once took 1.9 s of CPU), so a kind that once held the event loop longer than
:data:`SLOW_ON_LOOP_S` decides in threads for the rest of the process: the worst the event loop waits for
computer players thought quick is one slow decision per kind of player, not one every few moves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..logs import log
from ..runtime import lower_priority, watch_server

__all__ = ["QUICK_IN_A_ROW", "QUICK_S", "SLOW_ON_LOOP_S", "THINKING_NICENESS", "Thinkers", "Thinking"]

T = TypeVar("T")

QUICK_S = 0.002
"""CPU seconds under which a decision counts as quick."""

QUICK_IN_A_ROW = 8
"""Quick decisions in a row (measured in a thread) before a kind of player decides on the event loop."""

SLOW_ON_LOOP_S = 0.02
"""A decision on the event loop this long (ten times :data:`QUICK_S`, in CPU time as well as on the wall
clock, so that a busy machine's pauses do not count) keeps its kind of player off the event loop for good."""


THINKING_NICENESS = 5
"""How much lower than the server's the thinking processes' scheduling priority is (Linux ``nice``): below the
event loop, above the reviews (``REVIEW_NICENESS``)."""


class Thinking:
    """The computer players' decisions (and hints) of one server process: ``threads`` threads, or as many
    worker processes when ``processes``."""

    def __init__(self, threads: int, *, processes: bool = False) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="nines-think")
        self.thinkers = Thinkers(threads) if processes else None
        self._quick: dict[str, int] = {}  # kind of player -> quick decisions in a row
        self._held_the_loop: set[str] = set()  # kinds once slow on the event loop: threads only from then on
        self._stay_here: set[str] = set()  # kinds that could not be sent to a worker process: threads only

    async def decide(self, decide: Callable[[Any], T], view: Any) -> T:
        """``decide(view)``: on the event loop if this kind of player is quick; in a worker process if it was
        measured slow and processes are on; otherwise in a thread."""
        kind = _kind(decide)
        if self._on_loop(kind):
            # measured by its CPU time, as in a thread: the wall clock also counts the interpreter lock held by
            # another thread (the journal's) and a busy machine's pauses, which sent quick kinds back to the
            # threads under load; one that held the event loop long is checked against both
            started, cpu_started = time.perf_counter(), time.thread_time()
            try:
                return decide(view)
            finally:
                cpu = time.thread_time() - cpu_started
                if cpu >= SLOW_ON_LOOP_S and time.perf_counter() - started >= SLOW_ON_LOOP_S:
                    self._held_the_loop.add(kind)
                self._measured(kind, cpu)
        player = getattr(decide, "__self__", None)
        if (self._slow(kind) and self.thinkers is not None and kind not in self._stay_here
                and getattr(decide, "__name__", "") == "decide" and hasattr(player, "__dict__")):
            try:
                decision, cpu = await self.thinkers.decide(player, view)
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                # a player that cannot travel to a worker (something in it does not pickle): it thinks in this
                # process's threads from now on, rather than fail every decision
                log.warning("thinking.stays_here", kind=kind, error=str(error))
                self._stay_here.add(kind)
            else:
                self._measured(kind, cpu)
                return decision  # type: ignore[no-any-return]
        return await asyncio.get_running_loop().run_in_executor(self.pool, self._timed, kind, decide, view)

    def quick(self, decide: Callable[[Any], Any]) -> bool:
        """Whether this kind of player decides on the event loop now."""
        return self._on_loop(_kind(decide))

    def _slow(self, kind: str) -> bool:
        """Its last decision was not quick: a kind of player is first measured in a thread, so a server whose
        players are all quick starts no thinking process."""
        return self._quick.get(kind) == 0

    def _on_loop(self, kind: str) -> bool:
        return self._quick.get(kind, 0) >= QUICK_IN_A_ROW and kind not in self._held_the_loop

    def _timed(self, kind: str, decide: Callable[[Any], T], view: Any) -> T:
        started = time.thread_time()  # this thread's own CPU time: waiting for the interpreter lock is not counted
        try:
            return decide(view)
        finally:
            self._measured(kind, time.thread_time() - started)

    def _measured(self, kind: str, cpu_s: float) -> None:
        self._quick[kind] = self._quick.get(kind, 0) + 1 if cpu_s < QUICK_S else 0

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.thinkers is not None:
            self.thinkers.close()


class Thinkers:
    """The worker processes computer players think in (see the module's docstring), started at the first
    decision of a kind of player measured slow (a server whose tables have only quick players starts none).  Each is forked by a
    forkserver (never a fork of the server and its threads), at :data:`THINKING_NICENESS`, and ends when the
    server ends, even killed outright.  A worker that died (the kernel out of memory) breaks the pool: the
    decision under way fails (its table's driver tries again) and a new pool is started."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=start_thinker,
                                             initargs=(os.getpid(),))
        return self._pool

    async def decide(self, player: Any, view: Any) -> tuple[Any, float]:
        """``player.decide(view)`` in a worker: the decision and the worker's CPU seconds for it.  The
        player's own state (its attributes) becomes the worker's copy's after the decision."""
        pool = self.pool()
        try:
            decision, state, cpu = await asyncio.get_running_loop().run_in_executor(pool, think, player, view)
        except BrokenProcessPool:
            log.warning("thinking.pool_broken", workers=self.workers)
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        vars(player).update(state)
        return decision, cpu

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def start_thinker(server: int) -> None:
    """A thinking process starts: its priority lowered, a watch that ends it with the server ``server``, and
    the players' modules imported."""
    lower_priority(THINKING_NICENESS)
    watch_server(server)
    ready()


def ready() -> None:
    """Import every computer player (done once in each worker)."""
    from ... import bots  # noqa: F401  (registers the search players: strong, expert, ismcts)


def think(player: Any, view: Any) -> tuple[Any, dict[str, Any], float]:
    """In a worker: the decision, the player's state after it, and the CPU seconds it took."""
    started = time.thread_time()
    decision = player.decide(view)
    return decision, vars(player), time.thread_time() - started


def _kind(decide: Callable[[Any], Any]) -> str:
    """A player's class and name (the same class plays differently under different names)."""
    player = getattr(decide, "__self__", decide)
    return f"{type(player).__module__}.{type(player).__qualname__}:{getattr(player, 'name', '')}"
