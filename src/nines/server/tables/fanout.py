"""A table's spectators on several processes: their frames worked out once, by the table's owner, and forwarded.

The process that owns a table (``owners.py``) works out what its spectators see at each change, as it does
for its own spectators (:meth:`Table.broadcast <nines.server.tables.table.Table.broadcast>`: a patch from the
last revision, at most every ``SPECTATORS_EVERY_S``), and posts the frame's text ("frame" event) while
spectators elsewhere wait for it.  Every other process forwards that text to its own spectators' sockets, as
it came (:meth:`Shown.forward <nines.server.wire.delta.Shown.forward>`): no view, patch or text is worked out
there, and the moves it follows are shown only to the seats whose sockets it holds (each seat's own view is
worked out where its socket is, and never travels between processes).

A process keeps the state the frames lead to, so a spectator who joins, or a socket that asks again, gets the
whole state without asking the owner.  When it keeps none (its first spectator of the table, a frame missed,
Redis back after an outage) it shows its own view of the table at once and asks the owner for the whole state
("want"); while its spectators watch it says so every ``RENEW_S`` ("watch", with the revision it holds), and the
owner sends frames for ``WATCHED_FOR_S`` after the last word, and the whole state again if that revision is not
its last (the last frame of a change was lost: nothing followed it to show the gap).  While Redis is away, or no owner is known, each process works out its
own spectators' frames as a process alone does.
"""

from __future__ import annotations

import asyncio
import time

from ..logs import log
from ..wire.pubsub import TableEvent
from .owners import RENEW_S, Owners
from .protocols import Tables
from .table import Table

WATCHED_FOR_S = 3 * RENEW_S
"""The owner sends frames this long after spectators elsewhere last said they watch (they say it every RENEW_S)."""

FRAME_TRUST_S = 2 * RENEW_S
"""A frame says its sender owns the table: taken for this long, or until Redis says otherwise."""

WANT_AGAIN_S = 1.0
"""A process asks a table's owner for the whole state at most this often."""


class Fanout:
    """The spectators' frames of this process's tables, to and from the other processes (see the module)."""

    def __init__(self, manager: Tables, owners: Owners) -> None:
        self.manager = manager
        self.owners = owners
        self._wanted_at: dict[str, float] = {}  # table -> when the owner was last asked for the whole state
        self._asking: set[asyncio.Task[None]] = set()
        self.published_frames = 0
        self.forwarded_frames = 0
        self.wants = 0

    # -- as a table sees it (table.Elsewhere) ------------------------------------------------------------

    def relaying(self, table: Table) -> bool:
        owner = table.owner
        return self.manager.broker.subscribed and owner.elsewhere is not None and time.monotonic() < owner.until

    def watching(self, table: Table) -> bool:
        owner = table.owner
        return owner.here and time.monotonic() < owner.spectators_until

    def published(self, table: Table, rev: int, base: int | None, text: str) -> None:
        self.published_frames += 1
        self.manager.broker.post(
            TableEvent(self.manager.instance, table.id, table.seq, "frame", frame=text, rev=rev, base=base)
        )

    def wanted(self, table: Table) -> None:
        now = time.monotonic()
        if now - self._wanted_at.get(table.id, -WANT_AGAIN_S) < WANT_AGAIN_S:
            return
        self._wanted_at[table.id] = now
        if len(self._wanted_at) > 4 * len(self.manager.tables) + 100:  # (tables gone from memory)
            self._wanted_at = {t: at for t, at in self._wanted_at.items() if t in self.manager.tables}
        if self.relaying(table):
            self._want(table)
            return
        task = asyncio.create_task(self._ask_and_want(table))  # no owner known: ask Redis first
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    # -- events from the other processes ---------------------------------------------------------------

    def on_event(self, table: Table, event: TableEvent) -> None:
        """A "frame", "want" or "watch" event about ``table`` from another process."""
        owner = table.owner
        if event.kind == "frame":
            if owner.here or event.frame is None or event.rev is None:
                return  # (a process that lost the table meanwhile: this one works the frames out now)
            if owner.elsewhere != event.origin or owner.until < time.monotonic() + FRAME_TRUST_S:
                owner.elsewhere, owner.until = event.origin, time.monotonic() + FRAME_TRUST_S
            spectators = [c for c in table.connections if c.seat is None]
            if table.shown.forward(spectators, event.rev, event.base, event.frame):
                self.forwarded_frames += 1
            elif spectators:
                self.wanted(table)  # a frame was missed: the whole state, and the patches follow it again
        elif owner.here:  # "want" or "watch": spectators elsewhere wait for this process's frames
            now = time.monotonic()
            paused = table.paused(now)
            owner.spectators_until = now + WATCHED_FOR_S
            if paused:
                table.wake.set()  # watched from elsewhere: the table goes on (nobody here watched it)
            # a "watch" from a process that keeps nothing of this one's frames (rev None) or an older one: the whole
            if event.kind == "want" or event.rev is None or event.rev != table.shown.last_rev(None):
                table.show_elsewhere()

    # -- asking ---------------------------------------------------------------------------------------------

    def _want(self, table: Table) -> None:
        self.wants += 1
        self.manager.broker.post(TableEvent(self.manager.instance, table.id, table.seq, "want"))

    async def _ask_and_want(self, table: Table) -> None:
        try:
            await self.owners.ask([table], take=False)
        except Exception:  # noqa: BLE001 - shown from here meanwhile; the next round asks again
            log.exception("fanout.ask_failed", table=table.id)
            return
        if self.relaying(table):
            self._want(table)

    async def keep_once(self) -> None:
        """For each table with spectators here and another owner: know who owns it, and tell the owner they watch
        (every ``RENEW_S``, with the owners' round: :meth:`Owners.keep_once`)."""
        now = time.monotonic()
        watched = [
            t
            for t in list(self.manager.tables.values())
            if not t.owner.here and any(c.seat is None for c in t.connections)
        ]
        stale = [t for t in watched if now >= t.owner.ask_at]
        if stale:
            await self.owners.ask(stale, take=False)
        for table in watched:
            if self.relaying(table):
                self.manager.broker.post(
                    TableEvent(self.manager.instance, table.id, table.seq, "watch", rev=table.shown.kept_rev)
                )
