"""Which process owns each table, when several share the tables through Redis.

The owner of a table holds its lease (:meth:`~nines.server.wire.pubsub.Broker.own`): it alone moves the table's
computer players and stand-ins, so no move is worked out twice.  It asked Redis once for the lease and renews
it every :data:`RENEW_S` while the table is watched here, not once per move (a per-move claim, a round trip to
Redis, cost the mover about 0.2 ms of CPU a move).  When nobody here watches the table any more, or the process
stops, the owner lets it go and says so ("released"): whichever process next needs to move the table takes it.
The lease of a table that left memory (finished, or closed for idleness) lapses after :data:`OWNER_TTL_S`, as
does a process's that was killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from ..logs import log
from ..wire.pubsub import CLAIM_TIMEOUT_S, STOPPING_TIMEOUT_S, TableEvent
from .protocols import Tables
from .table import Table

OWNER_TTL_S = 20.0
"""A lease lasts this long unless renewed (and another process takes over a stopped one's tables after it)."""

RENEW_S = 5.0
"""The owner renews the leases of its watched tables this often (and lets the others go)."""

WAIT_LEAST_S = 0.05
"""A process that does not own a table looks again at least this long after it asked."""


class Owners:
    """The leases of this process's tables: taken when a table must be moved, renewed, and let go."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.manager.broker.shared:
            self._task = asyncio.create_task(self._keep(), name="tables-owners")

    async def stop(self) -> None:
        """Stop renewing, and let every lease held here go (another process takes the tables at once)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.release(list(self.manager.tables.values()), STOPPING_TIMEOUT_S)

    async def drive(self, table: Table) -> float | None:
        """``None`` when this process owns ``table`` and moves it now; otherwise the seconds until it should look
        again (another process owns it: its moves come through the events)."""
        if not self.manager.broker.shared:
            return None
        owner = table.owner
        if time.monotonic() >= owner.ask_at:
            await self.ask([table])
        if owner.here:
            return None
        return max(WAIT_LEAST_S, owner.until - time.monotonic())

    async def ask(self, tables: list[Table], take: bool = True) -> None:
        """Take or renew the leases of ``tables`` (one round trip), and note who holds each (``take`` False: only
        note who does; a process whose spectators alone watch a table leaves it to one that moves it)."""
        sent = time.monotonic()
        holders = await self.manager.broker.own([table.id for table in tables], OWNER_TTL_S, take)
        for table in tables:
            holder, owner = holders[table.id], table.owner
            if not holder.mine and holder.origin == owner.released_by and owner.released_at >= sent:
                # Redis answered before the holder let the table go, and its "released" came first: the answer is
                # stale (trusting it left the table unmoved until the old lease would have lapsed, 20 s); ask again
                owner.elsewhere = None
                owner.until = owner.ask_at = 0.0
                table.wake.set()
                continue
            taken = holder.mine and not owner.here
            owner.here = holder.mine
            owner.elsewhere = None if holder.mine or not holder.origin else holder.origin
            owner.until = sent + holder.left_s
            # the owner renews with half its lease left; another process asks once the holder's may have lapsed
            owner.ask_at = sent + (holder.left_s / 2 if holder.mine else max(holder.left_s, 0 if take else RENEW_S))
            if taken:
                log.info("table.owned", table=table.id, seq=table.seq)
                table.wake.set()

    async def release(self, tables: list[Table], timeout_s: float = CLAIM_TIMEOUT_S) -> None:
        """Let go those of ``tables`` this process owns, in one round trip: the others hear of it and the next to
        need each takes it (a stopping process with a hundred tables and Redis away waits ``timeout_s`` once)."""
        owned = [table for table in tables if table.owner.here]
        if not owned or not self.manager.broker.shared:
            return
        for table in owned:
            table.owner.here = False
            table.owner.until = table.owner.ask_at = 0.0
        await self.manager.broker.release([table.id for table in owned], timeout_s)
        for table in owned:
            self.manager.broker.post(TableEvent(self.manager.instance, table.id, table.seq, "released"))
            log.info("table.released", table=table.id, seq=table.seq)

    async def moved(self, table: Table) -> None:
        """A person's move was made here: if no process is known to own the table, this one takes it (a table of
        people alone has no computer player whose move would)."""
        owner = table.owner
        if (
            self.manager.broker.shared
            and not owner.here
            and (owner.elsewhere is None or time.monotonic() >= owner.until)
        ):
            await self.ask([table])

    def released(self, table: Table, origin: str) -> None:
        """Another process let ``table`` go: the next to need it here asks at once."""
        owner = table.owner
        owner.released_by, owner.released_at = origin, time.monotonic()
        if owner.elsewhere in (origin, None):  # (None: an answer from Redis naming it may be on its way)
            owner.elsewhere = None
            owner.until = owner.ask_at = 0.0
            table.wake.set()

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            try:
                await self.keep_once()
                await self.manager.fanout.keep_once()  # and tell the owners of the tables watched here
            except Exception:  # noqa: BLE001 - the next round tries again (a lease lasts several rounds)
                log.exception("owners.keep_failed")

    async def keep_once(self) -> None:
        """Renew the leases of the tables owned and watched here; let the others go (nobody here to move them for)."""
        now = time.monotonic()
        renew: list[Table] = []
        idle: list[Table] = []
        for table in list(self.manager.tables.values()):
            if table.owner.here:
                (idle if table.state.is_over or table.paused(now) else renew).append(table)
        if renew:
            await self.ask(renew)
        await self.release(idle)
