"""Sharing table events between server processes.

A process that stores an action publishes ``{table, seq, kind}``; the others catch up
from the database (the event only says *that* something changed, the log says *what*)
and push fresh views to their own sockets.  Without Redis, a process is alone and the
local broker does nothing.  Computer players are driven by whichever process claims
the move first (``SET NX`` on a per-move key), so a bot never moves twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Protocol

from .logs import log

CHANNEL = "nines:tables"


@dataclass(frozen=True)
class TableEvent:
    origin: str  # the process that published it
    table: str
    seq: int
    kind: str  # "action", "seats" or "pace"


Handler = Callable[[TableEvent], Awaitable[None]]


class Broker(Protocol):
    shared: bool

    async def start(self, handler: Handler) -> None: ...

    async def publish(self, event: TableEvent) -> None: ...

    async def claim(self, key: str, ttl_s: int) -> bool: ...

    async def close(self) -> None: ...


class LocalBroker:
    """One process: nothing to share, every claim succeeds."""

    shared = False

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, event: TableEvent) -> None:
        return None

    async def claim(self, key: str, ttl_s: int) -> bool:
        return True

    async def close(self) -> None:
        return None


class RedisBroker:
    """Table events over Redis pub/sub, move claims with ``SET NX EX``."""

    shared = True

    def __init__(self, url: str, origin: str) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(url, decode_responses=True)
        self._origin = origin
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self, handler: Handler) -> None:
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen(handler), name="nines-redis-listener")
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self, handler: Handler) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(CHANNEL)
                self._ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        event = TableEvent(**json.loads(message["data"]))
                    except (TypeError, ValueError):
                        log.warning("pubsub.malformed", data=str(message.get("data"))[:200])
                        continue
                    if event.origin == self._origin:
                        continue
                    try:
                        await handler(event)
                    except Exception:  # noqa: BLE001 -- logged; one bad event must not stop the subscription
                        log.exception("pubsub.handler_failed", table=event.table, seq=event.seq)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 -- logged, then the subscription reconnects
                log.exception("pubsub.disconnected")
                await asyncio.sleep(1.0)

    async def publish(self, event: TableEvent) -> None:
        await self._redis.publish(CHANNEL, json.dumps(asdict(event)))

    async def claim(self, key: str, ttl_s: int) -> bool:
        return bool(await self._redis.set(f"nines:claim:{key}", self._origin, nx=True, ex=ttl_s))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
