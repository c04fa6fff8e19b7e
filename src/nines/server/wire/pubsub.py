"""Sharing tables between server processes.

Events.  A process that stores a move publishes an "action" event ``{table, seq, kind, moves}`` carrying the
moves themselves: the others apply them without reading the store (after a gap they catch up from it) and show
them to their own sockets; "seats" and "pace" events ask them to read the table's seats and pace again.  Without
Redis, a process is alone and the local broker does nothing.

Owners.  One process at a time owns a table: it holds the table's lease in Redis (``nines:owner:<table>``, a key
set with an expiry by :meth:`RedisBroker.own`, renewed while the owner keeps the table going) and it alone moves
the table's computer players and stand-ins (``tables/owners.py``).  Another process asks again once the lease
may have lapsed, or at once when the owner lets the table go ("released").  A person's move is made where the
person's socket is; the database's unique ``(table, seq)`` makes sure a move is never *stored* twice.

Spectators.  The owner also works out what the table's spectators see, once for all processes: each change
goes to the others as the very text its own spectators were sent ("frame"), and they forward it to theirs
without working anything out.  A process whose spectators need frames says so ("want": a whole state now;
"watch": keep sending), ``tables/fanout.py``.  Frames and the like are sent in order (:meth:`RedisBroker.post`),
and one Redis cannot take is dropped: the receiver sees the gap and asks for a whole state.

Outages.  Publishing never holds up a move: :meth:`RedisBroker.publish` only notes the
event (the newest per table) and a sender task delivers it, retrying with backoff while
Redis is away, so other processes hear of every table that changed once it is back.
The listener notices a lost subscription, subscribes again as soon as Redis answers,
and then calls the reconnect hook: every table this process holds catches up from the
database, since events published meanwhile were lost.  When Redis cannot be asked, a
process acts as the owner of the tables it asks for, for :data:`GRANTED_S`: two processes
may then compute the same move, and the second one to store it is refused by the database.

Batches.  Every round trip to Redis costs this process about 0.2 ms of CPU (measured on the development machine:
the system calls and the event loop's wake-ups, more than redis-py's own Python), as much as a tenth of a move's
whole work.  So the sender waits :data:`PUBLISH_EVERY_S` after the first event, and publishes everything pending
then as one message (``{"origin", "events": [...]}``): under load one round trip carries several moves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

import orjson

from ..logs import log

CHANNEL = "nines:tables"
PUBLISH_TIMEOUT_S = 1.0
"""How long one publish may take before it is retried later (the move was acknowledged long before)."""
CLAIM_TIMEOUT_S = 0.5
"""How long asking Redis who owns tables may take before this process acts as their owner."""
STOPPING_TIMEOUT_S = 5.0
"""How long the last words of a stopping process may take (its leases let go, its last events): nobody waits on
them, and a busy machine that timed them out left its tables unmoved until their leases lapsed."""
GRANTED_S = 2.0
"""How long a lease this process could not ask Redis about is taken as its own (then it asks again)."""
QUEUED_MOST = 10_000
"""Events sent in order (:meth:`RedisBroker.post`) waiting for Redis at most; older ones are dropped."""
RETRY_FIRST_S = 0.2
RETRY_MOST_S = 5.0
PUBLISH_EVERY_S = 0.02
"""How long the sender waits after the first event before it publishes (what came meanwhile goes in the same
message).  Another process's sockets see a move this much later; the mover's own sockets are not held up.
(Spectators are sent a table's changes at most every 0.1 s anyway, and a computer player waits 0.9 s.)"""


@dataclass(frozen=True)
class TableEvent:
    origin: str  # the process that published it
    table: str
    seq: int
    kind: str  # "action", "seats", "pace" (merged per table while unsent); "released", "frame", "want", "watch"
    # an "action" event carries the moves up to ``seq`` itself, each [seat, by, action, stand_in], already
    # stored (the last is move ``seq``; more than one when events not yet sent were merged): a process that
    # holds the table at one of them applies the rest without reading the store (any other catches up)
    moves: list[list[Any]] | None = None
    # a "frame" carries what the table's spectators are sent, as the owner sent it to its own: the text of a
    # whole state (``base`` None) or of a patch from revision ``base`` to ``rev`` (``tables/fanout.py``)
    frame: str | None = None
    rev: int | None = None
    base: int | None = None


@dataclass(frozen=True)
class Holder:
    """Who owns a table, as Redis answered: this process (``mine``) or another (``origin``), for ``left_s`` more."""

    mine: bool
    origin: str
    left_s: float


OWN_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return {ARGV[1], tonumber(ARGV[2])}
end
return {holder, redis.call('PTTL', KEYS[1])}
"""
"""Take a table's lease if nobody holds it, renew it if this process does; either way say who holds it, for how long."""

PEEK_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if not holder then
    return {'', 0}
end
return {holder, redis.call('PTTL', KEYS[1])}
"""
"""Who holds a table's lease and for how long (``''``: nobody), taking nothing."""

RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


Handler = Callable[[TableEvent], Awaitable[None]]
ReconnectHook = Callable[[], Awaitable[None]]


class Broker(Protocol):
    shared: bool
    subscribed: bool  # the other processes' events reach this one now

    async def start(self, handler: Handler, on_reconnect: ReconnectHook | None = None) -> None: ...

    async def publish(self, event: TableEvent) -> None:
        """Send the event to the other processes; returns at once (delivery happens in the background)."""
        ...

    def post(self, event: TableEvent) -> None:
        """Send the event to the other processes after those posted before it, never merged; returns at once (an
        event Redis cannot take is dropped, not kept: one that stands for a state is published instead)."""
        ...

    async def own(self, tables: list[str], ttl_s: float, take: bool = True) -> dict[str, Holder]:
        """Take or renew the lease of each table nobody else holds, in one round trip; who holds each (``take``
        False: only who holds each, ``origin`` empty for nobody)."""
        ...

    async def release(self, tables: list[str], timeout_s: float = CLAIM_TIMEOUT_S) -> None:
        """Let the leases of ``tables`` go, those this process holds, in one round trip (Redis is given
        ``timeout_s`` for all of them; a lease lapses by itself otherwise)."""
        ...

    async def health(self) -> str:
        """``"ok"``, ``"local"`` (no pub/sub), or what is wrong."""
        ...

    async def close(self) -> None: ...


class LocalBroker:
    """One process: nothing to share, every table is its own."""

    shared = False
    subscribed = False

    async def start(self, handler: Handler, on_reconnect: ReconnectHook | None = None) -> None:
        return None

    async def publish(self, event: TableEvent) -> None:
        return None

    def post(self, event: TableEvent) -> None:
        return None

    async def own(self, tables: list[str], ttl_s: float, take: bool = True) -> dict[str, Holder]:
        return {table: Holder(True, "", float("inf")) for table in tables}

    async def release(self, tables: list[str], timeout_s: float = CLAIM_TIMEOUT_S) -> None:
        return None

    async def health(self) -> str:
        return "local"

    async def close(self) -> None:
        return None


def _merge(old: TableEvent | None, new: TableEvent) -> TableEvent:
    """Two events of one table not yet sent are one: the newer seq, and seats are reloaded if either asks.
    Two moves one after the other stay in the event, both (a receiver then needs no read of the store)."""
    if old is None:
        return new
    if old.kind == new.kind == "action" and old.moves and new.moves and new.seq - len(new.moves) == old.seq:
        return replace(new, moves=old.moves + new.moves)
    if old.kind == new.kind:
        return new
    return replace(new, kind="seats")  # receivers reload seats and pace, then catch up the moves


class RedisBroker:
    """Table events over Redis pub/sub, tables' leases as keys with an expiry."""

    shared = True

    def __init__(self, url: str, origin: str) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # commands give up quickly (callers time them out too); the subscription is not retried
        # inside the client, so that this class sees every lost connection and catches up after it
        self._redis = redis.from_url(url, decode_responses=True, socket_connect_timeout=2, socket_timeout=2)
        self._subscriber = redis.from_url(url, decode_responses=True, socket_connect_timeout=2,
                                          retry=Retry(NoBackoff(), 0))
        self._origin = origin
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()
        self._pending: dict[str, TableEvent] = {}
        self._queue: deque[TableEvent] = deque(maxlen=QUEUED_MOST)
        self._wake = asyncio.Event()
        self.subscribed = False
        self.reconnects = 0
        self._resync: asyncio.Task[None] | None = None

    async def start(self, handler: Handler, on_reconnect: ReconnectHook | None = None) -> None:
        await self._redis.ping()
        self._tasks = [
            asyncio.create_task(self._listen(handler, on_reconnect), name="nines-redis-listener"),
            asyncio.create_task(self._send(), name="nines-redis-sender"),
        ]
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self, handler: Handler, on_reconnect: ReconnectHook | None) -> None:
        delay = RETRY_FIRST_S
        lost = False
        while True:
            pubsub = self._subscriber.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                self.subscribed = True
                self._ready.set()
                delay = RETRY_FIRST_S
                if lost:
                    lost = False
                    self.reconnects += 1
                    log.info("pubsub.reconnected", reconnects=self.reconnects)
                    if on_reconnect is not None:
                        # events published while we were away are lost: follow every table from the store
                        self._resync = asyncio.create_task(self._guarded(on_reconnect), name="nines-redis-resync")
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                    if message is None or message.get("type") != "message":
                        continue
                    for event in _events(message, self._origin):
                        try:
                            await handler(event)
                        except Exception:  # noqa: BLE001 - one table's trouble must not stop the others' events
                            log.exception("pubsub.handler_failed", table=event.table, seq=event.seq)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - any lost connection: subscribe again
                if self.subscribed or not lost:
                    log.warning("pubsub.disconnected", error=f"{type(error).__name__}: {error}")
                self.subscribed = False
                lost = True
                if on_reconnect is not None and (self._resync is None or self._resync.done()):
                    # while Redis is away no event comes: follow every table from the store at each retry (every
                    # 0.2 s to 5 s), so another process's moves are still shown here (a table split across two
                    # processes froze for the whole of a Redis outage)
                    self._resync = asyncio.create_task(self._guarded(on_reconnect), name="nines-redis-follow")
                await asyncio.sleep(delay)
                delay = min(RETRY_MOST_S, delay * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    @staticmethod
    async def _guarded(hook: ReconnectHook) -> None:
        try:
            await hook()
        except Exception:  # noqa: BLE001 - logged; the next event or reconnect tries again
            log.exception("pubsub.resync_failed")

    async def publish(self, event: TableEvent) -> None:
        self._pending[event.table] = _merge(self._pending.get(event.table), event)
        self._wake.set()

    def post(self, event: TableEvent) -> None:
        self._queue.append(event)
        self._wake.set()

    async def _send(self) -> None:
        """Deliver pending events, every table's in one message; while Redis is away keep them and retry."""
        delay = RETRY_FIRST_S
        while True:
            await self._wake.wait()
            await asyncio.sleep(PUBLISH_EVERY_S)  # what comes meanwhile goes in the same message
            self._wake.clear()
            if not self._pending and not self._queue:
                continue
            batch, message = self._message()
            try:
                await asyncio.wait_for(self._redis.publish(CHANNEL, message), PUBLISH_TIMEOUT_S)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - kept and retried: the others hear of it later
                log.warning("pubsub.publish_failed", pending=len(self._pending), error=f"{type(error).__name__}: {error}")
                self._wake.set()
                await asyncio.sleep(delay)
                delay = min(RETRY_MOST_S, delay * 2)
                continue
            delay = RETRY_FIRST_S
            for table, event in batch.items():
                if self._pending.get(table) is event:
                    del self._pending[table]  # (one merged with a newer meanwhile stays, to be sent next)
            if self._pending:
                self._wake.set()

    def _message(self) -> tuple[dict[str, TableEvent], bytes]:
        """Every event waiting, as one message; the events merged per table (dropped once sent), and those posted
        in order (dropped now: sent once, whatever happens)."""
        batch = dict(self._pending)
        events = [_wire(event) for event in batch.values()] + [_wire(event) for event in self._queue]
        self._queue.clear()
        return batch, orjson.dumps({"origin": self._origin, "events": events})

    async def own(self, tables: list[str], ttl_s: float, take: bool = True) -> dict[str, Holder]:
        pipe = self._redis.pipeline(transaction=False)
        for table in tables:
            if take:
                pipe.eval(OWN_SCRIPT, 1, f"nines:owner:{table}", self._origin, int(ttl_s * 1000))
            else:
                pipe.eval(PEEK_SCRIPT, 1, f"nines:owner:{table}")
        try:
            replies = await asyncio.wait_for(pipe.execute(), CLAIM_TIMEOUT_S)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - no Redis: the database decides who stored a move first
            log.warning("pubsub.own_unanswered", tables=len(tables), error=type(error).__name__)
            return {table: Holder(take, self._origin if take else "", GRANTED_S if take else 0.0) for table in tables}
        holders = {}
        for table, (origin, left_ms) in zip(tables, replies, strict=True):
            left_s = ttl_s if left_ms < 0 else min(ttl_s, left_ms / 1000)  # (-1: a key without expiry, set by hand)
            holders[table] = Holder(origin == self._origin, origin, left_s)
        return holders

    async def release(self, tables: list[str], timeout_s: float = CLAIM_TIMEOUT_S) -> None:
        if not tables:
            return
        pipe = self._redis.pipeline(transaction=False)
        for table in tables:
            pipe.eval(RELEASE_SCRIPT, 1, f"nines:owner:{table}", self._origin)
        try:
            await asyncio.wait_for(pipe.execute(), timeout_s)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - they lapse by themselves
            log.warning("pubsub.release_unanswered", tables=len(tables), error=type(error).__name__)

    async def health(self) -> str:
        try:
            await asyncio.wait_for(self._redis.ping(), CLAIM_TIMEOUT_S)
        except Exception as error:  # noqa: BLE001 - reported, not raised
            return f"error: {type(error).__name__}"
        if not self.subscribed:
            return "error: not subscribed"
        return "ok"

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pending or self._queue:  # the last events (the leases let go as the process stops) still go
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._redis.publish(CHANNEL, self._message()[1]), STOPPING_TIMEOUT_S)
        await self._redis.aclose()
        await self._subscriber.aclose()


def _wire(event: TableEvent) -> dict[str, Any]:
    """An event as it travels in a message (its origin is the message's; fields left empty are left out).  Not
    ``dataclasses.asdict``, which copies every move's list deeply: a tenth of the event loop's time under load."""
    wired: dict[str, Any] = {"table": event.table, "seq": event.seq, "kind": event.kind}
    for key in _OPTIONAL:
        value = getattr(event, key)
        if value is not None:
            wired[key] = value
    return wired


_OPTIONAL = tuple(f.name for f in fields(TableEvent) if f.name not in ("origin", "table", "seq", "kind"))
"""The fields of a :class:`TableEvent` left out of a message when empty."""


def _events(message: dict[str, Any], origin: str) -> list[TableEvent]:
    """The events of a message from another process (none from this one's own, or from a malformed one)."""
    try:
        data = orjson.loads(message["data"])
        if data["origin"] == origin:
            return []
        return [TableEvent(origin=data["origin"], **event) for event in data["events"]]
    except (TypeError, ValueError, KeyError):
        log.warning("pubsub.malformed", data=str(message.get("data"))[:200])
        return []
