"""People: a name to use (the first browser to use it owns it), and each person's statistics."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from ..guard.limits import check_name
from ..wire.messages import Person
from .deps import ManagerDep, NameCounterDep, StoreDep
from .errors import API, BODY, STORE, refusals
from .seating import own_name

router = APIRouter()


PERSON_LINKS = {
    "personStats": {"operationId": "personStats", "parameters": {"name": "$response.body#/name"}},
    "personProfile": {"operationId": "personProfile", "parameters": {"name": "$response.body#/name"}},
    "nameKeys": {"operationId": "nameKeys", "parameters": {"name": "$response.body#/name"}},
    "makeNameCode": {"operationId": "makeNameCode", "parameters": {"name": "$response.body#/name"}},
    "passkeyOptions": {"operationId": "passkeyOptions", "parameters": {"name": "$response.body#/name"}},
    "playChallenge": {"operationId": "playChallenge", "parameters": {"game": "neuf"}, "requestBody": {"name": "$response.body#/name"}},
}
"""Where a name leads (OpenAPI links): its statistics, profile and keys, a code or a passkey to take it to
another browser, today's Le Neuf challenge under it."""


@router.post("/api/people", operation_id="usePerson", responses={**refusals(*API, *BODY, *STORE, 409),
                                                                 200: {"description": "The name", "links": PERSON_LINKS}})
async def register_person(body: Person, request: Request, response: Response, store: StoreDep,
                          count_name: NameCounterDep) -> dict[str, Any]:
    """Use a name: the first browser to use it owns it (a secret kept in an HttpOnly cookie)."""
    await own_name(store, request, response, body.name, count_name)
    await asyncio.to_thread(store.touch_person, body.name)
    return {"name": body.name}


@router.get("/api/people/{name}/stats", operation_id="personStats", responses=refusals(*API, *STORE))
async def person_stats(name: str, manager: ManagerDep, store: StoreDep) -> dict[str, Any]:
    try:
        check_name(name)
    except ValueError:  # not a name anyone can have: nothing to look up
        return {"name": name, "known": False, "games": {}}
    await manager.results_written()  # every deal a socket has shown is counted (see Moves._write_results, tables/moves.py)
    known = await asyncio.to_thread(store.person_exists, name)
    games = await asyncio.to_thread(store.person_stats, name) if known else {}
    return {"name": name, "known": known, "games": games}
