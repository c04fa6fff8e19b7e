"""One driver per live table: it knows whose turn it is and waits for the first of four things.

After lila's round actor (one owner per game), each table in memory has one task that,
for the decision at hand, waits for the first of:

* the person's own move (any change to the table wakes the driver),
* their clock running out (``clock_s``): a stand-in makes that one decision for them,
* their absence passing the grace period (``away_s``): a stand-in plays for them from then
  on, until they come back,
* a computer player's pace (``bot_delay_ms``): the computer player moves.

A computer player, a stand-in and a clock's default move are one path: a
:class:`~nines.bots.Player` deciding from that seat's view.  A move made for a person
is stored and shown with ``stand_in`` set.

Pauses: a table with people, nobody connected and no clock waits without moving; a table
of computer players alone waits while nobody watches.  The driver survives errors: a
failed step is retried with exponential backoff, and the manager's watchdog restarts any
driver that has stopped while its table should be moving.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...bots import Player
from ..logs import log

if TYPE_CHECKING:
    from .protocols import Tables
    from .table import Table

BACKOFF_FIRST_S = 0.5
BACKOFF_MOST_S = 30.0


@dataclass(frozen=True)
class Wait:
    """Nothing to do until the table changes, or ``timeout`` seconds pass (``None``: until it changes)."""

    timeout: float | None


@dataclass(frozen=True)
class Move:
    """A player decides for ``seat`` after ``delay`` seconds; ``stand_in`` when it decides for a person."""

    seat: str
    player: Player
    delay: float
    stand_in: bool
    why: str  # bot, clock, away


@dataclass(frozen=True)
class Stop:
    """The match is over (or the server is closing): the driver ends."""


Step = Wait | Move | Stop


def next_step(table: Table, now: float) -> Step:
    """What the driver of ``table`` should do now (a pure reading of the table, no waiting)."""
    if table.state.is_over:
        return Stop()
    if table.status != "playing":
        return Wait(None)  # a seat is still open: the match starts when it is taken
    acting = table.state.acting_seat
    if acting is None:
        return Wait(None)
    seat = table.seats[acting]
    pace = table.bot_delay_ms / 1000
    if seat.kind == "bot":
        if table.paused(now):
            return Wait(None)  # nobody watches: woken when someone does
        assert seat.player is not None
        return Move(acting, seat.player, pace, stand_in=False, why="bot")
    if table.paused(now):
        return Wait(None)  # nobody is here and no clock runs: woken when someone comes
    if table.stood_in(acting, now):
        return Move(acting, table.stand_in_player(acting), pace, stand_in=True, why="away")
    deadlines = []
    if table.clock_s is not None:
        left = table.clock_left(now)
        if left <= 0:
            return Move(acting, table.stand_in_player(acting), 0.0, stand_in=True, why="clock")
        deadlines.append(left)
    away_in = table.away_in(acting, now)
    if away_in is not None:
        deadlines.append(max(0.0, away_in))
    return Wait(min(deadlines) if deadlines else None)


class TableDriver:
    """The task that moves one table along (see the module's docstring)."""

    def __init__(self, manager: Tables, table: Table) -> None:
        self.manager = manager
        # held weakly: the table holds its driver, and a driver holding its table made a reference cycle, so a
        # finished table that left memory waited for a full collection, which a serving process makes only
        # now and then (``runtime.py``); the task holds the table while it runs
        self._table = weakref.ref(table)
        self.failures = 0
        self.moving_since: float | None = None  # when the move in progress began (the watchdog's clue)
        self.task: asyncio.Task[None] = asyncio.create_task(self._run(), name=f"driver-{table.id}")

    @property
    def table(self) -> Table:
        table = self._table()
        if table is None:
            raise RuntimeError("the driver's table has left memory")  # never: read only while the task holds it
        return table

    def alive(self) -> bool:
        return not self.task.done()

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task

    async def _run(self) -> None:
        table = self.table
        while not self.manager.closing:
            try:
                table.wake.clear()  # cleared before reading the table: a change from now on wakes us
                step = next_step(table, table.clock())
                if isinstance(step, Stop):
                    self.manager.forget_if_done(table, from_driver=True)
                    return
                if isinstance(step, Wait):
                    await _wait(table.wake, step.timeout)
                    continue
                await self._move(step)
                self.failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - any failure is retried, never the end of the table
                # a database or pub/sub outage, a player that failed: try again, more slowly each time
                self.failures += 1
                backoff = min(BACKOFF_MOST_S, BACKOFF_FIRST_S * 2 ** (self.failures - 1))
                log.exception("driver.failed", table=table.id, failures=self.failures, retry_in_s=backoff)
                await asyncio.sleep(backoff)

    async def _move(self, step: Move) -> None:
        table = self.table
        seq = table.seq
        self.moving_since = time.monotonic()
        try:
            await self._move_at(step, seq)
        finally:
            self.moving_since = None

    async def _move_at(self, step: Move, seq: int) -> None:
        table = self.table
        waited = 0.0
        while waited < step.delay:  # the pace, cut short when the pace changes
            started = time.monotonic()
            table.wake.clear()
            await _wait(table.wake, step.delay - waited)
            waited += time.monotonic() - started
            if table.seq != seq:
                return
            again = next_step(table, table.clock())
            if not (isinstance(again, Move) and again.seat == step.seat and again.stand_in == step.stand_in):
                return  # someone came back, the table paused: look again
            if again.delay != step.delay:
                return
        # (a stand-in for a person who left this process: its owner may never have seen them go)
        if step.why != "away":
            wait = await self.manager.owners.drive(table)
            if wait is not None:
                await self._wait_for_owner(wait)
                return
        async with table.lock:
            if table.seq != seq:
                return
            view = table.view(step.seat)
        decision = await self.manager.think(step.player.decide, view)
        await self.manager.commit_for(table, seq, step.seat, decision.action, stand_in=step.stand_in, why=step.why)

    async def _wait_for_owner(self, seconds: float) -> None:
        """Another process owns the table and moves it: its moves come through the events, and need not wake
        this driver (``Owner.parked``), which has nothing to do until the owner lets the table go or its lease
        may have lapsed; when no event came meanwhile, the store says whether one was missed."""
        table = self.table
        started = time.monotonic()
        table.owner.parked = True
        try:
            await _wait(table.wake, seconds)
        finally:
            table.owner.parked = False
        if not table.wake.is_set() and table.owner.heard_at < started:
            await self.manager.follow(table)


async def _wait(event: asyncio.Event, seconds: float | None) -> None:
    """Until ``event`` is set, or ``seconds`` pass (``None``: no limit)."""
    if seconds is None:
        await event.wait()
        return
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(event.wait(), timeout=seconds)
