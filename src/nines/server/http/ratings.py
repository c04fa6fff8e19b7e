"""Ratings over HTTP: a game's leaderboard, a finished table's rating changes, the leaderboard page."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from ...games import GAME_MODULES
from ...ratings import display, leaderboard, shown_change
from ...web import STATIC_DIR
from ..tables.table import TableError
from ..wire.answers import BoardRow, TableRatingChange
from ..wire.messages import ErrorCode
from .errors import API, STORE, refusals
from .standing_deps import RatingsDep, StandingDep

router = APIRouter()


def _game(game: str) -> str:
    if game not in GAME_MODULES:
        raise TableError(ErrorCode.NOT_FOUND, f"there is no game {game[:40]!r}; the games are: {', '.join(GAME_MODULES)}")
    return game


@router.get("/api/ratings/{game}", operation_id="ratingsBoard", summary="A game's leaderboard",
            response_model=list[BoardRow], responses=refusals(*API, *STORE, 404))
async def ratings_board(game: Annotated[str, Path(description="neuf, elyigit or rummy")],
                        standing: StandingDep) -> list[dict[str, Any]]:
    """People with a settled rating and every computer player (``computer``), best first (highest rating, then
    smallest deviation, then name).  An unknown game: 404."""
    rows = await asyncio.to_thread(standing.board, _game(game))
    return [row.as_dict() for row in leaderboard(rows)]


@router.get("/api/tables/{table_id}/ratings", operation_id="tableRatings", summary="What a match changed in ratings",
            response_model=list[TableRatingChange], responses=refusals(*API, *STORE))
async def table_ratings(table_id: str, standing: StandingDep, ratings: RatingsDep) -> list[dict[str, Any]]:
    """What the finished match at this table changed in each person's rating, with the rating after it and its
    provisional mark (the match-over notice and the last deal's summary show it).  Empty: not rated (casual,
    practice, a challenge, no person, not over, or no such table)."""
    await ratings.written()
    changes = await asyncio.to_thread(standing.table_changes, table_id[:32])
    return [{"name": c.name, "game": c.game, "rating": display(c.after).rating, "deviation": display(c.after).deviation,
             "provisional": display(c.after).provisional, "change": shown_change(c.before, c.after)} for c in changes]


@router.get("/ratings/{game}", include_in_schema=False)
async def ratings_page(game: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "ratings.html", headers={"Cache-Control": "no-cache"})
