"""What the ratings', challenge and profile routes reach through FastAPI's dependencies (on ``app.state``),
and who a request is: the names whose cookie secrets it holds."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..store.standing import Standing
from ..tables.challenges import Challenges, Ratings
from .deps import from_state
from .seating import name_cookie

StandingDep = Annotated[Standing, Depends(from_state("standing"))]
ChallengesDep = Annotated[Challenges, Depends(from_state("challenges"))]
RatingsDep = Annotated[Ratings, Depends(from_state("ratings"))]


def names_held(connection: HTTPConnection, names: list[str]) -> list[tuple[str, str]]:
    """Each of ``names`` with the secret this request's cookie holds for it (names without a cookie left out)."""
    held = []
    for name in names[:4]:
        secret = connection.cookies.get(name_cookie(name))
        if secret:
            held.append((name, secret))
    return held
