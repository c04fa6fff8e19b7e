"""The FastAPI application, assembled: the store, the table manager, reviews and bounds, and one router per area.

``create_app(config)`` builds everything from a :class:`ServerConfig`; ``nines serve`` runs it under uvicorn.
The routes live in :mod:`nines.server.http` (lobby, tables, records, people, the table socket, pages, health)
and reach what they need through FastAPI's dependencies (:mod:`nines.server.http.deps`, kept on
``app.state``).  Requests and socket messages are typed (pydantic models in :mod:`nines.server.wire.messages`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..games import GAME_MODULES
from ..web import STATIC_DIR
from .anchoring import Anchoring
from .config import ServerConfig
from .guard.limits import BodyLimit
from .http import challenge, health, lobby, names, pages, people, profile, ratings, records, sockets, tables
from .http.deps import Guards, utc_now
from .http.errors import add_error_handlers
from .http.middleware import log_requests
from .logs import log
from .records.replay import ReplayFrames
from .records.review import Reviews
from .runtime import CollectorPauses, settle
from .store.database import Store
from .store.standing import Standing
from .tables.challenges import Challenges, Ratings
from .tables.manager import TableManager
from .wire.frames import KeepServerSend
from .wire.pubsub import Broker, LocalBroker, RedisBroker


def make_broker(config: ServerConfig, instance: str) -> Broker:
    return RedisBroker(config.redis_url, instance) if config.redis_url else LocalBroker()


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    instance = config.instance or uuid.uuid4().hex[:8]
    store = Store(config.database_url)
    manager = TableManager(store, make_broker(config, instance), ServerConfig(**{**config.__dict__, "instance": instance}))
    reviews = Reviews(store, processes=config.review_processes)
    manager.action_listeners.append(reviews.after_action)
    standing = Standing(store)
    challenges = Challenges(manager, standing, config)
    rater = Ratings(standing, config)
    anchoring = Anchoring(standing, config)
    manager.action_listeners.append(challenges.after_action)
    manager.action_listeners.append(rater.after_action)
    pauses = CollectorPauses()  # the garbage collector's pauses, reported by /health

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        pauses.install()
        # before the tables are loaded: the start-up heap frozen, and from then on what survives each collection
        # (a finished table is still freed, by reference counting; cycles dead since frozen by the reclaims)
        collector = settle() if config.settle else None
        await manager.start()
        reviews.start()
        await anchoring.start()
        log.info("server.started", instance=instance, database=_safe_url(config.database_url),
                 pubsub="redis" if config.redis_url else "local")
        if config.address:
            print(f"Nines is ready: open {config.address} in a browser (Ctrl+C stops the server)", file=sys.stderr, flush=True)
        try:
            yield
        finally:
            await anchoring.stop()
            await manager.stop()
            reviews.close()
            store.close()
            pauses.remove()
            if collector is not None:
                collector.remove()
            log.info("server.stopped", instance=instance)

    app = FastAPI(title="Nines", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.store = store
    app.state.manager = manager
    app.state.reviews = reviews
    app.state.config = config
    app.state.instance = instance
    app.state.pauses = pauses
    app.state.guards = Guards.of(config.limits)
    app.state.replays = ReplayFrames()
    app.state.standing = standing
    app.state.challenges = challenges
    app.state.ratings = rater
    app.state.anchoring = anchoring
    app.state.clock = utc_now  # what "now" is for expiries (codes, passkey challenges): a test sets its own

    app.add_middleware(BodyLimit, max_bytes=config.limits.body_bytes, seconds=config.limits.request_s)
    app.middleware("http")(log_requests)
    app.add_middleware(KeepServerSend)  # outermost: a socket's own send from the server, for wire/frames.py
    add_error_handlers(app)

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    # in this order: the paths are matched in it, and the game pages' one path matches any single segment
    for router in (pages.router, health.router, lobby.router, tables.router, records.router, people.router,
                   ratings.router, challenge.router, profile.router, names.router, sockets.router, pages.game_pages):
        app.include_router(router)
    return app


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


__all__ = ["GAME_MODULES", "create_app"]
