"""A table over HTTP: made, looked at, joined, a seat claimed, played again, its state and its moves.

Browsers play over the table socket (:mod:`.sockets`); these are the same requests for programs, and
the ones a page makes before its socket opens.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response

from ...challenge import CHALLENGE_PRESET
from ..wire.messages import AgainRequest, Claim, CreateTable, HttpAct, JoinSeat, Seated
from .deps import AddressDep, GuardsDep, ManagerDep, NameCounterDep, StoreDep, refuse
from .errors import API, BODY, STORE, refusals
from .seating import own_name, set_seat_cookie
from .standing_deps import ChallengesDep, StandingDep, names_held

router = APIRouter()

MADE_LINKS = {
    "tableInfo": {"operationId": "tableInfo", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableState": {"operationId": "tableState", "parameters": {"table_id": "$response.body#/table/id", "header.x-nines-seat": "$response.body#/seat",
                                                                "header.x-nines-token": "$response.body#/token"}},
    "joinTable": {"operationId": "joinTable", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableAct": {"operationId": "tableAct", "parameters": {"table_id": "$response.body#/table/id"}},
    "playAgain": {"operationId": "playAgain", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableRecord": {"operationId": "tableRecord", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableRatings": {"operationId": "tableRatings", "parameters": {"table_id": "$response.body#/table/id"}},
}
"""Where a new table leads (OpenAPI links: its info, a seat's view, joining, moves, play again, its record, what
its match changed in ratings)."""


@router.post("/api/tables", status_code=201, operation_id="createTable",
             responses={**refusals(*API, *BODY, *STORE, 409), 201: {"description": "The table, the seat taken and its token, the invitation", "links": MADE_LINKS}})
async def create_table(body: CreateTable, request: Request, response: Response, manager: ManagerDep, store: StoreDep,
                       guards: GuardsDep, address: AddressDep, count_name: NameCounterDep,
                       standing: StandingDep) -> dict[str, Any]:

    def is_live(table_id: str) -> bool:
        table = manager.tables.get(table_id)
        return table is not None and manager.counts_as_live(table)

    refuse(guards.live_tables.refusal(address, is_live) or guards.rates.create_table(address))
    # the name becomes this browser's only if the table is made (a refused request once stored it all the same)
    claim = functools.partial(own_name, store, request, response, body.name, count_name) if body.name else None
    seated = await manager.create(body, claim)
    if body.casual:  # not rated (stored before any move: the match cannot end before it)
        await asyncio.to_thread(standing.mark_casual, seated.table.id)
    guards.live_tables.add(address, seated.table.id)
    return seated.model_dump(mode="json")


@router.get("/api/tables/{table_id}", operation_id="tableInfo", responses=refusals(*API, *STORE, 404))
async def table_info(table_id: str, manager: ManagerDep) -> dict[str, Any]:
    table = await manager.get(table_id)
    manager.seats.visited(table)
    return table.info().model_dump(mode="json")


@router.post("/api/tables/{table_id}/join", operation_id="joinTable", responses=refusals(*API, *BODY, *STORE, 403, 404, 409))
async def join_table(table_id: str, body: JoinSeat, request: Request, response: Response, manager: ManagerDep,
                     store: StoreDep, count_name: NameCounterDep) -> dict[str, Any]:
    claim = functools.partial(own_name, store, request, response, body.name, count_name) if body.name else None
    seated = await manager.seats.join(table_id, body, claim)
    assert seated.seat is not None and seated.token is not None
    set_seat_cookie(request, response, table_id, seated.seat, seated.token)
    return seated.model_dump(mode="json")


@router.post("/api/tables/{table_id}/claim", operation_id="claimSeat", responses=refusals(*API, *BODY, *STORE, 403, 404, 409))
async def claim_seat(table_id: str, body: Claim, request: Request, response: Response,
                     manager: ManagerDep) -> dict[str, Any]:
    """Spend a one-time seat link: this browser now holds the seat (an HttpOnly cookie scoped to
    the table's socket), and any other browser that held it watches instead."""
    table, seat, token = await manager.claims.claim(table_id, body.claim)
    set_seat_cookie(request, response, table_id, seat, token)
    return {"table": table.info().model_dump(mode="json"), "seat": seat}


@router.post("/api/tables/{table_id}/again", operation_id="playAgain", responses=refusals(*API, *BODY, *STORE, 403, 404, 409))
async def play_again(table_id: str, body: AgainRequest, manager: ManagerDep) -> dict[str, Any]:
    """Play again (for programs; browsers ask over the socket): the new table, and the seat's token there."""
    table = await manager.get(table_id)
    seat = manager.seats.authenticate(table, body.seat, body.token)
    new, token = await manager.play_again.again(table, seat, body.accept)
    return Seated(table=new.info(), seat=seat if token else None, token=token, invite=new.invite).model_dump(mode="json")


@router.delete("/api/tables/{table_id}", operation_id="cancelTable", status_code=204,
               responses=refusals(*API, *STORE, 403, 404, 409))
async def cancel_table(
    table_id: str,
    manager: ManagerDep,
    x_nines_seat: str | None = Header(default=None),
    x_nines_token: str | None = Header(default=None),
) -> Response:
    """Cancel a table nobody else has joined (its seat's token): it no longer counts against this address's
    tables in play."""
    table = await manager.get(table_id)
    await manager.seats.cancel(table, manager.seats.authenticate(table, x_nines_seat, x_nines_token))
    return Response(status_code=204)


@router.get("/api/tables/{table_id}/state", operation_id="tableState", responses=refusals(*API, *STORE, 403, 404, 422))
async def table_state(
    table_id: str,
    request: Request,
    manager: ManagerDep,
    challenges: ChallengesDep,
    x_nines_seat: str | None = Header(default=None),
    x_nines_token: str | None = Header(default=None),
    name: Annotated[str | None, Query(description="a name this browser holds: a spectator at a table of today's "
                                            "challenge must have finished that challenge")] = None,
) -> dict[str, Any]:
    """The view of one seat (with its token) or of a spectator: the same as the socket sends."""
    table = await manager.get(table_id)
    seat = manager.seats.authenticate(table, x_nines_seat, x_nines_token)
    if seat is None and table.preset == CHALLENGE_PRESET:
        await challenges.guard(table.id, names_held(request, [name] if name else []))
    manager.seats.visited(table, seat)
    async with table.lock:
        return table.state_for(seat).model_dump(mode="json")


@router.post("/api/tables/{table_id}/actions", operation_id="tableAct", responses=refusals(*API, *BODY, *STORE, 403, 404, 409))
async def table_act(table_id: str, body: HttpAct, manager: ManagerDep) -> dict[str, Any]:
    table = await manager.get(table_id)
    seat = manager.seats.authenticate(table, body.seat, body.token)
    return (await manager.act(table, seat, body.seq, body.action)).model_dump(mode="json")
