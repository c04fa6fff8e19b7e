"""A day's challenge standings at the server: worked out off the event loop, once for every request that asks
while they are being worked out, and kept until an entry of that day finishes (or for a moment, for the
entries other processes finish).

Working them out is a query of the day's finished results (:meth:`Standing.day_results`), each deal's
matchpoints by sorting and the answer's JSON (:func:`nines.challenge.standing_table`): 10,000 entries
of six deals in some tens of milliseconds (``benchmarks/challenge_standings.py``), kept as the JSON the
request answers with, so a request for kept standings costs nothing but sending them.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from ...challenge import standing_table
from ..store.standing import Standing

__all__ = ["STANDINGS_FRESH_S", "DayStandings", "WorkedOut", "work_out"]

STANDINGS_FRESH_S = 2.0
"""How long a day's standings are kept when nothing changes on this process (an entry finished on another
process shows after at most this long; one finished on this process at the next request)."""

KEPT_DAYS = 16
"""How many (day, game) standings are kept at once (the oldest asked for goes first)."""


@dataclass(frozen=True)
class WorkedOut:
    body: bytes
    """The answer of ``GET /api/challenge/{game}/{day}``: the rows, best first, as JSON."""
    percent: dict[str, float]
    """Each name's average matchpoints in percent, rounded as the rows have it (the profile's)."""


def work_out(standing: Standing, day: str, game: str) -> WorkedOut:
    """Read and score a day's finished entries (blocking: the server calls it in a thread)."""
    table = standing_table(standing.day_results(day, game))
    return WorkedOut(table.json(), dict(zip(table.names, table.percent.tolist(), strict=True)))


class DayStandings:
    """The standings of each (day, game), kept (see the module's docstring)."""

    def __init__(self, standing: Standing, fresh_s: float = STANDINGS_FRESH_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.standing = standing
        self.fresh_s = fresh_s
        self.clock = clock
        self._kept: OrderedDict[tuple[str, str], tuple[float, int, WorkedOut]] = OrderedDict()  # when, generation
        self._running: dict[tuple[str, str], tuple[int, asyncio.Task[WorkedOut]]] = {}
        self._generation: dict[tuple[str, str], int] = {}  # counts the entries finished on this process

    def changed(self, day: str, game: str) -> None:
        """An entry of the day finished here: the next request works the standings out again."""
        key = (day, game)
        self._generation[key] = self._generation.get(key, 0) + 1
        self._kept.pop(key, None)

    async def get(self, day: str, game: str) -> WorkedOut:
        key = (day, game)
        generation = self._generation.get(key, 0)
        kept = self._kept.get(key)
        if kept is not None and kept[1] == generation and self.clock() - kept[0] < self.fresh_s:
            self._kept.move_to_end(key)
            return kept[2]
        running = self._running.get(key)
        if running is None or running[0] != generation:
            task = asyncio.get_running_loop().create_task(self._work_out(key, generation))
            running = self._running[key] = (generation, task)
        # shielded: a request that goes away does not stop the work the others wait for
        return await asyncio.shield(running[1])

    async def _work_out(self, key: tuple[str, str], generation: int) -> WorkedOut:
        started = self.clock()
        try:
            worked = await asyncio.to_thread(work_out, self.standing, *key)
        finally:
            running = self._running.get(key)
            if running is not None and running[0] == generation:
                del self._running[key]
        if self._generation.get(key, 0) == generation:  # else an entry finished meanwhile: not kept
            self._kept[key] = (started, generation, worked)
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT_DAYS:
                self._kept.popitem(last=False)
        return worked
