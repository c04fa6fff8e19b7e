"""People: a name to use (the first browser to use it owns it), and each person's statistics."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from ..guard.limits import check_name
from ..wire.messages import Person
from .deps import ManagerDep, NameCounterDep, StoreDep
from .seating import own_name

router = APIRouter()


@router.post("/api/people")
async def register_person(body: Person, request: Request, response: Response, store: StoreDep,
                          count_name: NameCounterDep) -> dict[str, Any]:
    """Use a name: the first browser to use it owns it (a secret kept in an HttpOnly cookie)."""
    await own_name(store, request, response, body.name, count_name)
    await asyncio.to_thread(store.touch_person, body.name)
    return {"name": body.name}


@router.get("/api/people/{name}/stats")
async def person_stats(name: str, manager: ManagerDep, store: StoreDep) -> dict[str, Any]:
    try:
        check_name(name)
    except ValueError:  # not a name anyone can have: nothing to look up
        return {"name": name, "known": False, "games": {}}
    await manager.results_written()  # every deal a socket has shown is counted (see Moves._write_results, tables/moves.py)
    known = await asyncio.to_thread(store.person_exists, name)
    games = await asyncio.to_thread(store.person_stats, name) if known else {}
    return {"name": name, "known": known, "games": games}
