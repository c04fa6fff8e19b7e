"""The daily challenge over HTTP: a person's table of the day, the day's standings, each deal's spread, the page."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import FileResponse

from ...challenge import CHALLENGES
from ...web import STATIC_DIR
from ..tables.table import TableError, hash_token
from ..wire.answers import ChallengeDays, ChallengeDeals, ChallengeSeated, StandingRow
from ..wire.messages import ErrorCode, Person
from .deps import NameCounterDep
from .errors import API, BODY, STORE, refusals
from .seating import browser_name_secret, name_owned, set_name_cookie
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


DAYS_LINKS = {
    "challengeStandings": {"operationId": "challengeStandings", "parameters": {"game": "neuf", "day": "$response.body#/day"}},
    "challengeDeals": {"operationId": "challengeDeals", "parameters": {"game": "neuf", "day": "$response.body#/day"}},
}
"""Today's Le Neuf challenge: its standings and its deals (the other games' the same, by their names)."""

Game = Annotated[str, Path(description="neuf, elyigit or rummy: the games with a daily challenge")]
Day = Annotated[str, Path(description="YYYY-MM-DD (UTC), or today")]

SEATED_LINKS = {
    "tableInfo": {"operationId": "tableInfo", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableState": {"operationId": "tableState", "parameters": {"table_id": "$response.body#/table/id", "header.x-nines-seat": "$response.body#/seat",
                                                                "header.x-nines-token": "$response.body#/token"}},
    "tableAct": {"operationId": "tableAct", "parameters": {"table_id": "$response.body#/table/id"}},
    "tableRecord": {"operationId": "tableRecord", "parameters": {"table_id": "$response.body#/table/id"}},
    "challengeStandings": {"operationId": "challengeStandings", "parameters": {"game": "$request.path.game", "day": "$response.body#/day"}},
    "challengeDeals": {"operationId": "challengeDeals", "parameters": {"game": "$request.path.game", "day": "$response.body#/day",
                                                                        "query.name": "$request.body#/name"}},
}
"""Where a person's challenge table leads (OpenAPI links): the table (its info, the seat's view, moves, its record)
and the day (its standings, its deals' spread)."""


@router.get("/api/challenge", operation_id="challengeDays", summary="Today and each game's daily challenge",
            response_model=ChallengeDays, responses={**refusals(*API), 200: {"description": "Today and the challenges",
                                                                            "links": DAYS_LINKS}})
async def challenge_days(challenges: ChallengesDep) -> dict[str, Any]:
    """Today (UTC, as the server counts it) and each game's challenge: its deals, the person's seat and the
    computer player at the others."""
    return {"day": str(challenges.today()),
            "games": {game: {"deals": c.deals, "seat": c.seat, "bot": c.bot} for game, c in CHALLENGES.items()}}


@router.post("/api/challenge/{game}", operation_id="playChallenge", summary="A person's challenge table of today",
             response_model=ChallengeSeated,
             responses={**refusals(*API, *BODY, *STORE, 403, 404, 409),
                        200: {"description": "The table, the person's seat and its token, a one-time link, the day",
                              "links": SEATED_LINKS}})
async def play_challenge(game: Game, body: Person, request: Request, response: Response,
                         challenges: ChallengesDep, count_name: NameCounterDep) -> dict[str, Any]:
    """Today's challenge table of this person, as a named person (the name becomes this browser's, as
    ``POST /api/people``; another browser's name: 409): ``table``, ``seat``, ``token``, a one-time ``url`` and
    ``day``; the same table on every later call that day (a fresh token and link each time).  An unknown
    game: 404."""
    _challenge(game)
    secret, fresh = browser_name_secret(request, body.name)
    seated = await challenges.start(game, body.name, hash_token(secret), count_name)
    if seated is None:
        raise name_owned(body.name)
    if fresh:
        set_name_cookie(request, response, body.name, secret)
    return seated


@router.get("/api/challenge/{game}/{day}", operation_id="challengeStandings", summary="A day's challenge standings",
            response_model=list[StandingRow], responses=refusals(*API, *STORE, 404))
async def challenge_standings(game: Game, day: Day, challenges: ChallengesDep) -> Response:
    """Each finished entry's matchpoints in percent, on average and per deal, best first (then by name).  On a
    deal a result beating another counts 1, a tie 1/2, as a percentage of the others (a lone result 50).  An
    unknown game: 404; a day not written YYYY-MM-DD: 422."""
    _challenge(game)
    worked = await challenges.standings(_day(day, challenges), game)
    return Response(worked.body, media_type="application/json")


@router.get("/api/challenge/{game}/{day}/deals", operation_id="challengeDeals", summary="Each deal's spread of a day's challenge",
            response_model=ChallengeDeals, responses=refusals(*API, *STORE, 404))
async def challenge_deals(game: Game, day: Day, request: Request, standing: StandingDep,
                          challenges: ChallengesDep,
                          name: Annotated[str | None, Query(description="whose place (the request must hold that name's cookie)")] = None,
                          ) -> dict[str, Any]:
    """Once you have finished (or the day is over): each deal's spread of results, your place and table, and
    the table of the best result (its replay).  Before (today, not finished): ``closed``, no deals."""
    _challenge(game)
    when = _day(day, challenges)
    await challenges.written()
    finished = await asyncio.to_thread(standing.day_tables, when, game)
    me = None
    for held_name, secret in names_held(request, [name] if name else []):
        if held_name in finished and await asyncio.to_thread(standing.owns_name, held_name, hash_token(secret)):
            me = held_name
    if when >= str(challenges.today()) and me is None:
        # not an error for the page that asks before knowing: the deals stay secret until you have finished
        return {"game": game, "day": when, "entries": len(finished), "closed": True, "deals": []}
    deals = await asyncio.to_thread(deal_spreads, CHALLENGES[game].deals, finished, me)
    return {"game": game, "day": when, "entries": len(finished), "closed": False, "deals": deals}


def deal_spreads(deals: int, finished: dict[str, tuple[str, list[float]]], me: str | None) -> list[dict[str, Any]]:
    """Each deal's results (best first) of the finished entries (each name's table and results), ``me``'s result,
    place and table, and the best result's name and table (the first entry with it)."""
    mine_table, my_results = finished[me] if me is not None else (None, [])
    spreads = []
    for index in range(deals):
        played = [(results[index], name) for name, (_table, results) in finished.items() if index < len(results)]
        values = sorted((value for value, _ in played), reverse=True)
        best = max(played, key=lambda p: p[0])[1] if played else None
        mine = my_results[index] if index < len(my_results) else None
        spreads.append({
            "deal": index + 1,
            "results": values,
            "mine": mine,
            "place": None if mine is None else 1 + sum(1 for v in values if v > mine),
            "best": None if best is None else {"name": best, "table": finished[best][0]},
            "table": mine_table,
        })
    return spreads


@router.get("/challenge/{game}", include_in_schema=False)
@router.get("/challenge/{game}/{day}", include_in_schema=False)
async def challenge_page(game: str, day: str | None = None) -> FileResponse:
    return FileResponse(STATIC_DIR / "challenge.html", headers={"Cache-Control": "no-cache"})
