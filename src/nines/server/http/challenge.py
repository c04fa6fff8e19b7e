"""The daily challenge over HTTP: a person's table of the day, the day's standings, each deal's spread, the page."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

from ...challenge import CHALLENGES
from ...web import STATIC_DIR
from ..tables.table import TableError, hash_token
from ..wire.messages import ErrorCode, Person
from .deps import NameCounterDep, StoreDep
from .seating import own_name
from .standing_deps import ChallengesDep, StandingDep, names_held

router = APIRouter()


def _challenge(game: str) -> str:
    if game not in CHALLENGES:
        raise TableError(ErrorCode.NOT_FOUND, f"there is no daily challenge of {game[:40]!r}; there are: {', '.join(CHALLENGES)}")
    return game


def _day(day: str, challenges: Any) -> str:
    if day == "today":
        return str(challenges.today())
    try:
        return dt.date.fromisoformat(day[:10]).isoformat()
    except ValueError:
        raise TableError(ErrorCode.MALFORMED, f"a day is written YYYY-MM-DD, not {day[:20]!r}") from None


@router.get("/api/challenge")
async def challenge_days(challenges: ChallengesDep) -> dict[str, Any]:
    """Today (UTC, as the server counts it) and each game's challenge: its deals and the person's seat."""
    return {"day": str(challenges.today()),
            "games": {game: {"deals": c.deals, "seat": c.seat, "bot": c.bot} for game, c in CHALLENGES.items()}}


@router.post("/api/challenge/{game}")
async def play_challenge(game: str, body: Person, request: Request, response: Response, store: StoreDep,
                         challenges: ChallengesDep, count_name: NameCounterDep) -> dict[str, Any]:
    """Today's challenge table of this person (as a named person): ``table``, ``seat``, ``token``, a one-time
    ``url`` and ``day``; the same table on every later call that day."""
    _challenge(game)
    await own_name(store, request, response, body.name, count_name)
    return await challenges.start(game, body.name)


@router.get("/api/challenge/{game}/{day}")
async def challenge_standings(game: str, day: str, challenges: ChallengesDep) -> Response:
    """The day's standings: each finished entry's matchpoints in percent, and per deal, best first."""
    _challenge(game)
    worked = await challenges.standings(_day(day, challenges), game)
    return Response(worked.body, media_type="application/json")


@router.get("/api/challenge/{game}/{day}/deals")
async def challenge_deals(game: str, day: str, request: Request, standing: StandingDep, challenges: ChallengesDep,
                          name: str | None = None) -> dict[str, Any]:
    """Once you have finished (or the day is over): each deal's spread of results, your place, and the table
    of the best result (its replay).  ``name``: whose place (the request must hold that name's cookie)."""
    _challenge(game)
    when = _day(day, challenges)
    await challenges.written()
    entries = await asyncio.to_thread(standing.day_entries, when, game)
    me = None
    for held_name, secret in names_held(request, [name] if name else []):
        owned: bool = await asyncio.to_thread(standing.owns_name, held_name, hash_token(secret))
        if owned:
            me = next((e for e in entries if e.name == held_name), None)
    if when >= str(challenges.today()) and me is None:
        # not an error for the page that asks before knowing: the deals stay secret until you have finished
        return {"game": game, "day": when, "entries": len(entries), "closed": True, "deals": []}
    deals = []
    for index in range(CHALLENGES[game].deals):
        played = [(e.results[index], e) for e in entries if index < len(e.results)]
        values = sorted((v for v, _ in played), reverse=True)
        best = max(played, key=lambda p: p[0])[1] if played else None
        mine = me.results[index] if me is not None and index < len(me.results) else None
        deals.append({
            "deal": index + 1,
            "results": values,
            "mine": mine,
            "place": None if mine is None else 1 + sum(1 for v in values if v > mine),
            "best": None if best is None else {"name": best.name, "table": best.table_id},
            "table": None if me is None else me.table_id,
        })
    return {"game": game, "day": when, "entries": len(entries), "closed": False, "deals": deals}


@router.get("/challenge/{game}", include_in_schema=False)
@router.get("/challenge/{game}/{day}", include_in_schema=False)
async def challenge_page(game: str, day: str | None = None) -> FileResponse:
    return FileResponse(STATIC_DIR / "challenge.html", headers={"Cache-Control": "no-cache"})
