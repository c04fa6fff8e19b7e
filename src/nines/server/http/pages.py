"""The pages: home, statistics, the icon, and each game's page (last: ``/{game_id}`` would take any path)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...games import GAME_MODULES
from ...web import STATIC_DIR

router = APIRouter()
game_pages = APIRouter()
"""Included after every other router: its one path matches any single segment."""


@router.get("/", include_in_schema=False)
async def home() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/stats", include_in_schema=False)
async def stats_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "stats.html", headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")


@game_pages.get("/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> FileResponse:
    """A game's page: its title and promise, the table, how to play, history and variants."""
    if game_id not in GAME_MODULES:
        # a person typed or followed a wrong address: a page that says so in their language, not JSON
        return FileResponse(STATIC_DIR / "missing.html", status_code=404, headers={"Cache-Control": "no-cache"})
    return FileResponse(STATIC_DIR / "game.html", headers={"Cache-Control": "no-cache"})
