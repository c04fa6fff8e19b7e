"""``/health``: whether this process can reach its database and (when configured) Redis, and how it runs."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ..wire.frames import DirectWriter
from .deps import ConfigDep, ManagerDep, PausesDep, StoreDep

HEALTH_TIMEOUT_S = 2

router = APIRouter()


@router.get("/health", operation_id="health")
async def health(request: Request, store: StoreDep, manager: ManagerDep, config: ConfigDep,
                 pauses: PausesDep) -> dict[str, Any]:
    """Whether this process can reach its database and (when configured) Redis: ``degraded`` if not."""
    database = "ok"
    try:
        await asyncio.wait_for(asyncio.to_thread(store.ping), HEALTH_TIMEOUT_S)
    except Exception as error:  # noqa: BLE001 - reported, not raised: health says what is wrong
        database = f"error: {type(error).__name__}"
    redis = await manager.broker.health()
    return {
        "status": "ok" if database == "ok" and redis in ("ok", "local") else "degraded",
        "instance": request.app.state.instance,
        "tables": len(manager.tables),
        "database": database,
        "pubsub": "redis" if config.redis_url else "local",
        "redis": redis,
        "collector": pauses.summary(),
        "anchoring": request.app.state.anchoring.summary(),  # the computer players' anchor matches (anchoring.py)
        "sockets": {"direct_frames": DirectWriter.written},  # messages written straight to the connection (frames.py)
        # spectators' frames worked out here for other processes, and forwarded here as another process sent them
        "fanout": {"published": manager.fanout.published_frames, "forwarded": manager.fanout.forwarded_frames,
                   "wants": manager.fanout.wants},
    }
