"""The lobby: the games and their options, and the public tables to join or watch."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import orjson
from fastapi import APIRouter, Response

from ...games import UnknownGame, get_game
from ...games.contract import RulesError, options_to_dict
from ..tables.table import TableError
from ..wire.messages import ErrorCode, ResolveOptions
from .deps import AddressDep, GuardsDep, ManagerDep, refuse
from .describe import describe_games

router = APIRouter()


@router.get("/api/games", response_model=list[dict[str, Any]])
async def games() -> Response:
    # described once per process, and encoded once: the same bytes for every page that opens
    return Response(await asyncio.to_thread(_games_body), media_type="application/json")


@router.post("/api/games/{game_id}/resolve")
async def resolve(game_id: str, body: ResolveOptions) -> dict[str, Any]:
    """The options a preset and overrides give, and the seats they make."""
    try:
        spec = get_game(game_id)
        options = spec.options(body.preset, body.options)
    except UnknownGame as error:
        raise TableError(ErrorCode.MALFORMED, str(error)) from None
    except RulesError as error:
        raise TableError(ErrorCode.MALFORMED, str(error), key=error.key, params=error.params) from None
    seats = spec.new_match(options, 0).seats
    return {"options": options_to_dict(options), "seats": list(seats)}


@router.get("/api/tables", response_model=list[dict[str, Any]])
async def list_tables(manager: ManagerDep, guards: GuardsDep, address: AddressDep) -> Response:
    """Public tables only (a table is private unless made public): those with open seats carry their
    invitation, so a seat can be taken from the home page; the others are there to watch."""
    refuse(guards.rates.lobby(address))
    # sent as encoded, not through the framework's encoder (a listing is fifty tables' data; every home page
    # asks for one every few seconds)
    return Response(orjson.dumps(await manager.lobby.listed()), media_type="application/json")


@functools.cache
def _games_body() -> bytes:
    return orjson.dumps(describe_games())
