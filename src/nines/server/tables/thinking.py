"""Where computer players think: in the server's own threads, or on the event loop when they are quick.

A decision of a searching player (the expert, ismcts) takes tens or hundreds of milliseconds: it is
worked out in a thread of its own, so the tables keep moving meanwhile.  But a rule-based player
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
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["QUICK_IN_A_ROW", "QUICK_S", "SLOW_ON_LOOP_S", "Thinking"]

T = TypeVar("T")

QUICK_S = 0.002
"""CPU seconds under which a decision counts as quick."""

QUICK_IN_A_ROW = 8
"""Quick decisions in a row (measured in a thread) before a kind of player decides on the event loop."""

SLOW_ON_LOOP_S = 0.02
"""A decision on the event loop this long (ten times :data:`QUICK_S`, in CPU time as well as on the wall
clock, so that a busy machine's pauses do not count) keeps its kind of player off the event loop for good."""


class Thinking:
    """The computer players' decisions (and hints) of one server process."""

    def __init__(self, threads: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="nines-think")
        self._quick: dict[str, int] = {}  # kind of player -> quick decisions in a row
        self._held_the_loop: set[str] = set()  # kinds once slow on the event loop: threads only from then on

    async def decide(self, decide: Callable[[Any], T], view: Any) -> T:
        """``decide(view)``: on the event loop if this kind of player is quick, otherwise in a thread."""
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
        return await asyncio.get_running_loop().run_in_executor(self.pool, self._timed, kind, decide, view)

    def quick(self, decide: Callable[[Any], Any]) -> bool:
        """Whether this kind of player decides on the event loop now."""
        return self._on_loop(_kind(decide))

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


def _kind(decide: Callable[[Any], Any]) -> str:
    """A player's class and name (the same class plays differently under different names)."""
    player = getattr(decide, "__self__", decide)
    return f"{type(player).__module__}.{type(player).__qualname__}:{getattr(player, 'name', '')}"
