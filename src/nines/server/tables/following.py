"""Following other processes: a move or a seat another process stored, applied here and shown to this
process's sockets; and this process's own changes published for the others (:mod:`nines.server.wire.pubsub`)."""

from __future__ import annotations

import asyncio
import time

from ..logs import log
from ..records.results import count_results, counted_elsewhere
from ..store.database import StoredAction
from ..wire.messages import LastAction
from ..wire.pubsub import TableEvent
from .protocols import Tables
from .table import Table, utcnow


class Following:
    """What other server processes did to the tables this one holds, and what this one tells them."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager

    async def follow(self, table: Table) -> None:
        """Catch up with moves another process made."""
        async with table.lock:
            if await self.catch_up(table, force=True):
                table.broadcast()

    async def catch_up(self, table: Table, force: bool = False) -> bool:
        """Apply actions other processes stored since this one last looked (under the lock)."""
        if not (self.manager.broker.shared or force):
            return False
        actions = await asyncio.to_thread(self.manager.store.actions_after, table.id, table.seq)
        for a in actions:
            if a.seq != table.seq + 1:
                break
            self._follow_move(table, a)
        if actions:
            table.wake.set()
        return bool(actions)

    def _follow_move(self, table: Table, a: StoredAction) -> None:
        """Apply a move another process stored (the next one of the table; under the lock)."""
        table.state.apply(table.state.parse_action(a.action), by=a.by)
        if a.stand_in:
            table.stand_ins[a.seq] = a.by
        table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action, stand_in=a.stand_in)
        table.moved_at = utcnow()
        table.turn_changed(wake=False)  # the caller wakes the driver if it has anything to do

    async def publish(self, table: Table, kind: str) -> None:
        if self.manager.broker.shared:
            await self.manager.results_written()  # another process's sockets show the move once its statistics are written
            seq, moves = table.seq, None
            if kind == "action":
                # every move made here since the last event, in order: a person's move publishes after its
                # acknowledgement, and a computer player's next move may have been made and published first (its
                # event carried only itself, and the other processes read the store to find the move before it)
                made, table.unpublished = table.unpublished, []
                if not made:
                    return  # told already, by the event of a later move
                seq, moves = made[-1].seq, [[m.seat, m.by, m.action, m.stand_in] for m in made]
            try:
                await self.manager.broker.publish(TableEvent(self.manager.instance, table.id, seq, kind, moves))
            except Exception:  # noqa: BLE001 -- logged; the table goes on without the other processes
                log.exception("pubsub.publish_failed", table=table.id)

    async def on_remote(self, event: TableEvent) -> None:
        """Another process changed a table: follow it from the store and show our sockets."""
        table = self.manager.tables.get(event.table)
        if table is None:
            return
        if event.kind == "released":
            self.manager.owners.released(table, event.origin)
            return
        if event.kind in ("frame", "want", "watch"):
            self.manager.fanout.on_event(table, event)  # the spectators' frames: no lock, nothing worked out here
            return
        table.owner.heard_at = time.monotonic()  # a change came: a driver waiting for the owner need not read the store
        async with table.lock:
            if event.kind in ("seats", "pace"):
                stored = await asyncio.to_thread(self.manager.store.load_table, table.id)
                if stored is not None:
                    self.manager.set_seats(table, stored.seats)
                    table.bot_delay_ms = stored.bot_delay_ms
            first = event.seq - len(event.moves) + 1 if event.moves else None
            if event.kind == "action" and event.moves and first is not None and first <= table.seq + 1 <= event.seq:
                # the next moves, as the event carries them: no need to read the store
                for seq in range(table.seq + 1, event.seq + 1):
                    seat, by, action, stand_in = event.moves[seq - first]
                    self._follow_move(table, StoredAction(seq=seq, seat=seat, by=by, action=action, stand_in=stand_in))
                counted_elsewhere(table)  # their statistics were written by the process that made them
            else:
                if event.seq > table.seq or event.kind != "action":
                    await self.catch_up(table, force=True)
                # caught up from the store: a process that stopped before writing a move's statistics never told
                await count_results(self.manager.store, table)
            table.broadcast()
        # a driver waiting for the owner has nothing to do, unless a person seen here may be owed a stand-in, or the
        # match is over (the table leaves memory now, not once the lease may have lapsed)
        if not table.owner.parked or table.seen_at or table.state.is_over:
            table.wake.set()

    async def follow_all(self) -> None:
        """Pub/sub came back after an outage: events sent meanwhile were lost, so every table this
        process holds catches up from the store (seats, pace and moves) and shows its sockets."""
        for table in list(self.manager.tables.values()):
            await self.on_remote(TableEvent(self.manager.instance, table.id, table.seq, "seats"))
        log.info("tables.followed", count=len(self.manager.tables))
