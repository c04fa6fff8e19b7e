"""How the server's Python runs: the garbage collector's pauses, and the interpreter lock's hand-offs.

**The collector.**  CPython frees most objects when their last reference goes, and collects reference
cycles by generations: a young collection when 700 more container objects were allocated than freed
(by default), an older one every tenth of those, and a *full* collection, which walks every tracked
object of the process, when the old generation has grown by a quarter.  A server under load allocates
fast (views, patches and messages for every move) and holds a large heap (the modules, the rules, the
computer players' tables, every table in play), so with the default thresholds the objects that live a
few moves (the views a table keeps until the next move) are promoted before they die, the old
generation grows quickly, and full collections come every few seconds and stop the event loop for
hundreds of milliseconds (``benchmarks/server_load.py``: five full collections of 290 to 680 ms in 40 s,
a tenth of the loop's time in the collector).

So the server, once started (modules imported, schema migrated), collects once and *freezes* what is
left (``gc.freeze``: moved to a permanent generation that no collection walks; it is still freed by
reference counting), and raises the young generation's threshold (:data:`THRESHOLDS`) so that what
a move allocates is mostly freed before any collection sees it.  Instagram's servers do the same
(their write-up "Dismissing Python Garbage Collection at Instagram").  :class:`CollectorPauses` measures
the collections and their pauses (a ``gc.callbacks`` hook): ``/health`` reports them.

**The interpreter lock.**  The database's thread (the move journal's commits) runs Python between the
database's own calls, each of which releases the interpreter lock; taking it back while the event loop
runs waits for the loop to let go, which it does only every ``sys.getswitchinterval()`` (5 ms by
default).  A commit makes a few dozen such calls, so under load a commit that needs 4 ms of CPU took
40 ms, and every move waits for a commit.  :data:`SWITCH_INTERVAL_S` lets such a thread in sooner.
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SWITCH_INTERVAL_S", "THRESHOLDS", "CollectorPauses", "settle"]

THRESHOLDS = (20_000, 10, 10)
"""``gc.set_threshold`` for a serving process (CPython's default: 700, 10, 10): a young collection per
20,000 container objects allocated and not freed (a few hundred moves), the older generations as usual.
A full collection then comes every hundred young ones (minutes under load), so the reference cycles
of finished tables are still freed, not left to grow."""

SWITCH_INTERVAL_S = 0.0005
"""``sys.setswitchinterval`` for a serving process (CPython's default: 0.005)."""


def settle() -> None:
    """Once the server has started: collect, freeze what is left, and set the collector's thresholds and
    the interpreter's switch interval for serving (see the module's docstring)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL_S)


@dataclass
class _Generation:
    collections: int = 0
    total_s: float = 0.0
    worst_s: float = 0.0
    cpu_s: float = 0.0  # the collecting thread's CPU time (on a busy machine, less than the wall clock's)


@dataclass
class CollectorPauses:
    """Every collection of this process, per generation: how many, their time in all, the longest pause,
    and their CPU time.

    Installed as a ``gc.callbacks`` hook by :meth:`install` (removed by :meth:`remove`); the time is
    the wall clock's from the collection's start to its end (the event loop's pause), the CPU time the
    collecting thread's own (on a busy machine the process also waits for a core).
    """

    generations: list[_Generation] = field(default_factory=lambda: [_Generation() for _ in range(3)])
    _started: float = 0.0
    _cpu_started: float = 0.0

    def install(self) -> CollectorPauses:
        if self._hook not in gc.callbacks:
            gc.callbacks.append(self._hook)
        return self

    def remove(self) -> None:
        if self._hook in gc.callbacks:
            gc.callbacks.remove(self._hook)

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started, self._cpu_started = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - self._started
        generation = self.generations[info["generation"]]
        generation.cpu_s += time.thread_time() - self._cpu_started
        generation.collections += 1
        generation.total_s += took
        generation.worst_s = max(generation.worst_s, took)

    @property
    def full(self) -> int:
        """Full collections so far (the oldest generation's)."""
        return self.generations[2].collections

    def summary(self) -> dict[str, Any]:
        """Plain data: per generation, collections, total and longest pause and CPU time (ms); objects frozen."""
        return {
            "frozen": gc.get_freeze_count(),
            "thresholds": list(gc.get_threshold()),
            "generations": [
                {"collections": g.collections, "total_ms": round(g.total_s * 1000, 1), "worst_ms": round(g.worst_s * 1000, 1),
                 "cpu_ms": round(g.cpu_s * 1000, 1)}
                for g in self.generations
            ],
        }
