"""A person's profile: ratings per game and their course (a chart drawn here, as SVG), challenge results,
recent rated matches with links to their replays; and the profile page."""

from __future__ import annotations

import asyncio
import io
from collections import defaultdict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import FileResponse

from ...ratings import display, shown_change
from ...web import STATIC_DIR
from ..guard.limits import check_name
from ..store.standing import RatingChange, Standing
from ..wire.answers import Profile
from .errors import API, STORE, refusals
from .standing_deps import ChallengesDep, RatingsDep, StandingDep

router = APIRouter()


def _known(name: str) -> bool:
    try:
        check_name(name)
    except ValueError:
        return False
    return True


def _profile(standing: Standing, name: str, today: str) -> dict[str, Any]:
    ratings = {game: {"rating": d.rating, "deviation": d.deviation, "provisional": d.provisional, "matches": skill.matches}
               for game, skill in standing.person_ratings(name).items() for d in [display(skill)]}
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    changes = standing.history(name)
    for change in changes:
        history[change.game].append(_point(change))
    matches = [{**_point(c), "game": c.game, "url": f"/{c.game}?t={c.table_id}"} for c in reversed(changes[-20:])]
    # percent: from the day's standings, filled in by the request (kept standings, not worked out per profile)
    challenges = [{"day": entry.day, "game": entry.game, "finished": entry.finished, "percent": None,
                   "deals": len(entry.results), "url": f"/challenge/{entry.game}/{entry.day}",
                   "table": entry.table_id if entry.finished or entry.day < today else None}
                  for entry in standing.person_entries(name, limit=14)]
    # tricks lost per deal to costly cards (the review), day by day
    review = {game: stats["by_day"] for game, stats in standing.store.person_review_stats(name).items()}
    return {"name": name, "ratings": ratings, "history": dict(history), "matches": matches, "challenges": challenges,
            "review": review}


def _point(change: RatingChange) -> dict[str, Any]:
    return {"table": change.table_id, "at": change.rated_at.replace(microsecond=0).isoformat() + "Z",
            "rating": display(change.after).rating, "change": shown_change(change.before, change.after)}


PROFILE_LINKS = {
    "personChart": {"operationId": "personChart", "parameters": {"name": "$request.path.name"}},
    "personStats": {"operationId": "personStats", "parameters": {"name": "$request.path.name"}},
    "nameKeys": {"operationId": "nameKeys", "parameters": {"name": "$request.path.name"}},
    "tableRatings": {"operationId": "tableRatings", "parameters": {"table_id": "$response.body#/matches/0/table"}},
}
"""Where a profile leads (OpenAPI links): its chart, the person's statistics and names' keys, and the newest
rated match's changes."""


@router.get("/api/people/{name}/profile", operation_id="personProfile", summary="A person's profile",
            response_model=Profile,
            responses={**refusals(*API, *STORE), 200: {"description": "The profile (empty for a name nobody can have)",
                                                      "links": PROFILE_LINKS}})
async def person_profile(name: str, standing: StandingDep, ratings: RatingsDep, challenges: ChallengesDep) -> dict[str, Any]:
    """Ratings per game and their course, the newest rated matches (with their tables, for replays), the newest
    daily challenges (with the day's matchpoints once finished), tricks lost to costly cards day by day."""
    if not _known(name):
        return {"name": name, "ratings": {}, "history": {}, "matches": [], "challenges": [], "review": {}}
    await ratings.written()
    await challenges.written()
    profile = await asyncio.to_thread(_profile, standing, name, str(challenges.today()))
    for entry in profile["challenges"]:
        if entry["finished"]:
            entry["percent"] = (await challenges.standings(entry["day"], entry["game"])).percent.get(name)
    return profile


CHART_WORDS = {"en": ("rated matches", "rating"), "fr": ("parties classées", "cote")}


def rating_chart(history: dict[str, list[tuple[int, int]]], titles: dict[str, str], lang: str = "en") -> str:
    """Each game's rating after each rated match, as an SVG line chart (matplotlib, no fonts embedded)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.0), dpi=100)
    axes = figure.add_subplot()
    for game, points in sorted(history.items()):
        axes.plot([n for n, _ in points], [r for _, r in points], marker="o", markersize=3, label=titles.get(game, game))
    across, up = CHART_WORDS.get(lang, CHART_WORDS["en"])
    axes.set_xlabel(across)
    axes.set_ylabel(up)
    axes.grid(True, alpha=0.3)
    if history:
        axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(out, format="svg")
    return out.getvalue()


@router.get("/api/people/{name}/chart.svg", operation_id="personChart", summary="A person's rating chart (SVG)",
            response_class=Response,
            responses={**refusals(*API, *STORE), 200: {"description": "An SVG line chart", "content": {"image/svg+xml": {}}}})
async def person_chart(name: str, standing: StandingDep, ratings: RatingsDep,
                       lang: Annotated[str, Query(description="the axes' words: en or fr (others: en)")] = "en",
                       ) -> Response:
    """The profile's chart: each game's rating after each rated match (from 1500 before the first), drawn as
    SVG (matplotlib, the text as text)."""
    from ...games import get_game

    history: dict[str, list[tuple[int, int]]] = {}
    if _known(name):
        await ratings.written()
        for change in await asyncio.to_thread(standing.history, name):
            points = history.setdefault(change.game, [(0, display(change.before).rating)])
            points.append((len(points), display(change.after).rating))
    titles = {game: get_game(game).title for game in history}
    svg = await asyncio.to_thread(rating_chart, history, titles, lang)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@router.get("/people/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "profile.html", headers={"Cache-Control": "no-cache"})
