"""What the ratings', challenge and profile routes reach through FastAPI's dependencies (on ``app.state``),
and who a request is: the names whose cookie secrets it holds."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..store.standing import Standing
from ..tables.challenges import Challenges, Ratings
from .seating import name_cookie


def _standing(connection: HTTPConnection) -> Standing:
    standing: Standing = connection.app.state.standing
    return standing


def _challenges(connection: HTTPConnection) -> Challenges:
    challenges: Challenges = connection.app.state.challenges
    return challenges


def _ratings(connection: HTTPConnection) -> Ratings:
    ratings: Ratings = connection.app.state.ratings
    return ratings


StandingDep = Annotated[Standing, Depends(_standing)]
ChallengesDep = Annotated[Challenges, Depends(_challenges)]
RatingsDep = Annotated[Ratings, Depends(_ratings)]


def names_held(connection: HTTPConnection, names: list[str]) -> list[tuple[str, str]]:
    """Each of ``names`` with the secret this request's cookie holds for it (names without a cookie left out)."""
    held = []
    for name in names[:4]:
        secret = connection.cookies.get(name_cookie(name))
        if secret:
            held.append((name, secret))
    return held
