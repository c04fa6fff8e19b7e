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
reference counting), as Instagram's servers do (their write-up "Dismissing Python Garbage Collection at
Instagram").  That alone left the tables: what a match keeps (its moves, its tricks, the views' plain
data) lives for minutes and grows with every move, so it was promoted from generation to generation and
walked again by each older collection (a middle one of about 210 ms and a full one of 130 to 170 ms in
38 s of ``benchmarks/server_load.py``; one such pause stalls some 70 moves in flight).  So
:class:`Collector` freezes again after *every* collection: what survived one collection is out of all
later ones, and each collection walks only what was allocated, and is still alive, since the last one
(about ``THRESHOLDS[0]`` objects: a few milliseconds).  Nothing in the tables' own state is a reference
cycle (a finished table is freed by reference counting the moment the manager forgets it;
``test_runtime.py`` holds it so), so freezing it loses nothing.  What it would lose is a cycle that
became garbage after it was frozen (an HTTP connection that was open at a collection, say): those are
freed by a *reclaim* (unfreeze, one full collection, freeze again), run on the event loop when the
process's resident memory has grown by half since the last one, and by 256 MB (:data:`RECLAIM_GROWTH`,
:data:`RECLAIM_MORE_BYTES`), and at least
every :data:`RECLAIM_EVERY_S` while anything is allocated, so the memory such cycles hold is bounded.
:class:`CollectorPauses` measures the collections and their pauses (a ``gc.callbacks`` hook):
``/health`` reports them.

**The interpreter lock.**  The database's thread (the move journal's commits) runs Python between the
database's own calls, each of which releases the interpreter lock; taking it back while the event loop
runs waits for the loop to let go, which it does only every ``sys.getswitchinterval()`` (5 ms by
default).  A commit makes a few dozen such calls, so under load a commit that needs 4 ms of CPU took
40 ms, and every move waits for a commit.  :data:`SWITCH_INTERVAL_S` lets such a thread in sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RECLAIM_EVERY_S", "RECLAIM_GROWTH", "RECLAIM_MORE_BYTES", "SWITCH_INTERVAL_S", "THRESHOLDS", "Collector", "CollectorPauses",
           "installed", "resident_bytes", "settle", "watch_server"]

THRESHOLDS = (5_000, 10, 10)
"""``gc.set_threshold`` for a serving process (CPython's default: 700, 10, 10): a collection per 5,000
container objects allocated and not freed (a few hundred moves' growth of the tables' state under load;
each walks about that many objects, a few milliseconds).  With everything older frozen after each
collection (:class:`Collector`) the older generations hold nothing older than the last collection, so
their collections cost what a young one does."""

RECLAIM_GROWTH = 1.5
"""A reclaim (unfreeze, a full collection, freeze) once resident memory is this many times what it was
after the last one, and :data:`RECLAIM_MORE_BYTES` more: the memory that cycles dead since they were
frozen can hold is bounded by it."""

RECLAIM_MORE_BYTES = 256 * 2**20
"""A server's memory grows for a few minutes after it starts without any cycle in it: the tables in play,
their sockets, the caches filling up to their bounds (the reviews kept, the finished tables kept).  Under
``benchmarks/server_load.py`` from 90 MB at start-up to 165 MB after 90 s, 0.6 MB a second, with no
cyclic garbage to speak of; a reclaim at half as much again came within the first 40 s (a pause of 200 to
600 ms).  So growth alone asks for a reclaim only past this much more."""

RECLAIM_EVERY_S = 600.0
"""And at least this often while the process allocates (a cycle dead since it was frozen is freed within
ten minutes, however little memory it holds)."""

SWITCH_INTERVAL_S = 0.0005
"""``sys.setswitchinterval`` for a serving process (CPython's default: 0.005)."""


def resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc/self/statm``; 0 where there is none: no reclaim by size)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_installed: list[Collector] = []  # the one :func:`settle` installed in this process, if any


def settle() -> Collector:
    """Once the server has started, on its event loop: collect, freeze what is left, set the collector's
    thresholds and freeze what survives each later collection (:class:`Collector`), and set the
    interpreter's switch interval for serving (see the module's docstring)."""
    for before in _installed:
        before.remove()
    _installed[:] = [Collector(asyncio.get_running_loop()).install()]
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    return _installed[0]


def installed() -> Collector | None:
    """The collector :func:`settle` installed in this process, if any."""
    return _installed[0] if _installed else None


def _add_hook(hook: Callable[[str, dict[str, Any]], None]) -> None:
    """``hook`` among the collector's callbacks, once however often it is installed."""
    if hook not in gc.callbacks:
        gc.callbacks.append(hook)


def _remove_hook(hook: Callable[[str, dict[str, Any]], None]) -> None:
    if hook in gc.callbacks:
        gc.callbacks.remove(hook)


class Collector:
    """Freezes what survives each collection; reclaims (unfreeze, collect all, freeze) on the event loop
    when resident memory grew by :data:`RECLAIM_GROWTH` and :data:`RECLAIM_MORE_BYTES`, or
    :data:`RECLAIM_EVERY_S` passed.

    The hook runs in whichever thread's allocation started the collection, while the collector is still
    marked busy (a ``gc.collect`` there would do nothing): the reclaim is handed to the event loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, *, growth: float = RECLAIM_GROWTH, more: int = RECLAIM_MORE_BYTES,
                 every_s: float = RECLAIM_EVERY_S, thresholds: tuple[int, int, int] = THRESHOLDS,
                 resident: Callable[[], int] = resident_bytes, clock: Callable[[], float] = time.monotonic) -> None:
        self.loop = loop
        self.growth = growth
        self.more = more
        self.every_s = every_s
        self.thresholds = thresholds
        self.resident = resident
        self.clock = clock
        self.reclaims = 0
        """reclaims since installed (the first collection, at install, not counted)"""
        self.frozen = 0
        """objects frozen right after the last full collection (counting them walks them all: only then)"""
        self.resident_after = 0
        """resident memory (bytes) right after the last full collection"""
        self._at = 0.0
        self._due = False
        self._reclaiming = False

    def install(self) -> Collector:
        gc.collect()
        gc.freeze()
        self._mark()
        gc.set_threshold(*self.thresholds)
        _add_hook(self._hook)
        return self

    def remove(self) -> None:
        _remove_hook(self._hook)

    def _mark(self) -> None:
        self.frozen = gc.get_freeze_count()
        self.resident_after = self.resident()
        self._at = self.clock()

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop":
            return
        gc.freeze()  # what survived this collection: out of every later one (still freed by reference counting)
        if self._due or self._reclaiming:
            return
        if self.clock() - self._at >= self.every_s or self._grown():
            self._due = True
            with contextlib.suppress(RuntimeError):  # the loop closed: the process is ending
                self.loop.call_soon_threadsafe(self.reclaim)

    def _grown(self) -> bool:
        now, after = self.resident(), self.resident_after
        return now > after * self.growth and now > after + self.more

    def reclaim(self) -> None:
        """Unfreeze, collect everything (the cycles that died since they were frozen), freeze what is left."""
        self._reclaiming = True
        try:
            gc.unfreeze()
            gc.collect()  # the hook freezes what survives
        finally:
            self._reclaiming = False
            self._due = False
        self.reclaims += 1
        self._mark()


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
        _add_hook(self._hook)
        return self

    def remove(self) -> None:
        _remove_hook(self._hook)

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
        """Plain data: per generation, collections, total and longest pause and CPU time (ms); objects frozen
        after the last full collection and reclaims since start-up (with :func:`settle`; counting the frozen
        objects now would walk them all, tens of milliseconds on a serving heap)."""
        collector = installed()
        return {
            "frozen": collector.frozen if collector is not None else 0,
            "reclaims": collector.reclaims if collector is not None else 0,
            "resident_mb_after": round(collector.resident_after / 2**20, 1) if collector is not None else None,
            "thresholds": list(gc.get_threshold()),
            "generations": [
                {"collections": g.collections, "total_ms": round(g.total_s * 1000, 1), "worst_ms": round(g.worst_s * 1000, 1),
                 "cpu_ms": round(g.cpu_s * 1000, 1)}
                for g in self.generations
            ],
        }


def lower_priority(by: int) -> None:
    """Lower this thread's scheduling priority by ``by`` (Linux ``nice``; Linux schedules threads apart, and
    threads started from it inherit it), so that the server's event loop comes first on a busy machine."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: the usual priority
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + by))


def watch_server(server: int) -> None:
    """In a worker process of the server ``server`` (a process id): a thread that ends this process when the
    server ends, even killed outright (``kill -9``, the kernel out of memory), when nothing else would tell
    the worker (the review workers, the anchoring process)."""
    threading.Thread(target=_end_with, args=(server,), name="nines-end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    try:
        ended = os.pidfd_open(server)  # readable once the process has ended (Linux 5.3 on)
    except (AttributeError, OSError):  # elsewhere: look every second
        while _alive(server):
            time.sleep(1.0)
    else:
        select.select([ended], [], [])
    os._exit(0)  # the server is gone: nobody waits for this worker's answers


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process has the number: it is alive
        return True
    return True
