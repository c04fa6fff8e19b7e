"""What a table keeps for later: its record to download, each finished deal's replay and its review.

Each is read work an address may ask for only so often (``Limits.reads_per_minute``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Header, Request, Response

from ..guard.limits import valid_table_id
from ..records.replay import match_record
from ..records.review import review_job
from .deps import AddressDep, GuardsDep, ManagerDep, ReplaysDep, ReviewsDep, StoreDep, refuse
from .standing_deps import ChallengesDep, names_held

router = APIRouter()


@router.get("/api/tables/{table_id}/record")
async def table_record(table_id: str, request: Request, manager: ManagerDep, store: StoreDep, guards: GuardsDep,
                       address: AddressDep, challenges: ChallengesDep, name: str | None = None,
                       x_nines_seat: str | None = Header(default=None),
                       x_nines_token: str | None = Header(default=None)) -> Response:
    refuse(guards.rates.read(address))
    await challenges.guard(table_id, names_held(request, [name] if name else []), (x_nines_seat, x_nines_token))
    # a finished match's record is served as it was kept when the match ended, never replayed per request
    record = await asyncio.to_thread(store.finished_record, table_id) if valid_table_id(table_id) else None
    if record is None:
        table = await manager.get(table_id)
        async with table.lock:
            record = match_record(table)
    body = json.dumps(record, indent=1)
    filename = f"nines-{record['game']}-{table_id}.json"
    return Response(body, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/api/tables/{table_id}/replay/{deal}")
async def table_replay(table_id: str, deal: int, request: Request, manager: ManagerDep, replays: ReplaysDep,
                       guards: GuardsDep, address: AddressDep, challenges: ChallengesDep, name: str | None = None,
                       x_nines_seat: str | None = Header(default=None),
                       x_nines_token: str | None = Header(default=None)) -> dict[str, Any]:
    refuse(guards.rates.read(address))
    await challenges.guard(table_id, names_held(request, [name] if name else []), (x_nines_seat, x_nines_token))
    return await replays.get(await manager.get(table_id), deal)


@router.get("/api/tables/{table_id}/review/{deal}")
async def table_review(table_id: str, deal: int, request: Request, manager: ManagerDep, reviews: ReviewsDep,
                       guards: GuardsDep, address: AddressDep, challenges: ChallengesDep, name: str | None = None,
                       x_nines_seat: str | None = Header(default=None),
                       x_nines_token: str | None = Header(default=None)) -> dict[str, Any]:
    """A finished deal reviewed by the exact solver (see docs/review.md); refused while it is in play."""
    refuse(guards.rates.read(address))
    await challenges.guard(table_id, names_held(request, [name] if name else []), (x_nines_seat, x_nines_token))
    table = await manager.get(table_id)
    async with table.lock:
        job = review_job(table, deal)
    return await reviews.get(job)
