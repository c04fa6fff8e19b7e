"""The answers of the ratings', daily challenge's, profile's and names' operations (pydantic models): what the
OpenAPI description gives for them (``/api/openapi.json``), and what the routes' answers are checked against.
The shapes are those of ``docs/ratings.md`` and ``docs/names.md``."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .messages import Seated

__all__ = [
    "BoardRow",
    "ChallengeDays",
    "ChallengeDeals",
    "ChallengeEntry",
    "ChallengeGame",
    "ChallengeSeated",
    "DealBest",
    "DealSpread",
    "GameRating",
    "NameCode",
    "NameHeld",
    "NameTaken",
    "PasskeyChallenge",
    "PasskeyCount",
    "Profile",
    "RatedMatch",
    "RatedPoint",
    "StandingRow",
    "TableRatingChange",
]


class BoardRow(BaseModel):
    """A row of a game's leaderboard: a person with a settled rating, or a computer player (``computer``)."""

    name: str
    rating: int = Field(description="1500 + 42 (mu - 25): a newcomer is 1500")
    deviation: int = Field(description="42 sigma: a newcomer's is 350")
    matches: int = Field(description="rated matches")
    provisional: bool = Field(description="deviation 230 or more")
    computer: bool


class TableRatingChange(BaseModel):
    """What a rated match at a table changed in one person's rating."""

    name: str
    game: str
    rating: int = Field(description="after the match")
    deviation: int
    provisional: bool
    change: int = Field(description="the shown rating's change (+12, -7)")


class ChallengeGame(BaseModel):
    deals: int
    seat: str = Field(description="the person's seat, the same for everyone")
    bot: str = Field(description="the computer player at every other seat")


class ChallengeDays(BaseModel):
    day: str = Field(description="today (UTC) as the server counts it, YYYY-MM-DD")
    games: dict[str, ChallengeGame]


class ChallengeSeated(Seated):
    """Today's challenge table of a person: the seat, its token and a one-time link, as a new table's."""

    day: str


class StandingRow(BaseModel):
    """A finished entry in a day's standings."""

    name: str
    percent: float = Field(description="the average of the deals' matchpoints, in percent, two places")
    deals: list[float | None] = Field(description="each deal's matchpoints in percent (null: not played)")


class DealBest(BaseModel):
    name: str
    table: str = Field(description="the table of the best result on the deal (its replay)")


class DealSpread(BaseModel):
    deal: int
    results: list[float] = Field(description="everyone's result on the deal, best first (higher is better)")
    mine: float | None
    place: int | None
    best: DealBest | None
    table: str | None = Field(description="your own table")


class ChallengeDeals(BaseModel):
    game: str
    day: str
    entries: int = Field(description="finished entries")
    closed: bool = Field(description="today's deals stay secret until you have finished (deals then empty)")
    deals: list[DealSpread]


class GameRating(BaseModel):
    rating: int
    deviation: int
    provisional: bool
    matches: int


class RatedPoint(BaseModel):
    table: str
    at: str = Field(description="when the match was rated (UTC, ISO 8601)")
    rating: int = Field(description="after the match")
    change: int


class RatedMatch(RatedPoint):
    game: str
    url: str = Field(description="the table's page (its replay)")


class ChallengeEntry(BaseModel):
    day: str
    game: str
    finished: bool
    percent: float | None = Field(description="the day's matchpoints, once finished")
    deals: int = Field(description="deals played")
    url: str = Field(description="the day's standings page")
    table: str | None = Field(description="the person's table, once finished or the day is over")


class Profile(BaseModel):
    """A person's profile: ratings per game and their course, recent rated matches, challenges, reviews."""

    name: str
    ratings: dict[str, GameRating]
    history: dict[str, list[RatedPoint]] = Field(description="each game's rated matches, oldest first (the chart)")
    matches: list[RatedMatch] = Field(description="the 20 newest rated matches, newest first")
    challenges: list[ChallengeEntry] = Field(description="the 14 newest daily challenges")
    review: dict[str, Any] = Field(description="per game, the tricks lost to costly cards per deal, day by day")


class NameHeld(BaseModel):
    name: str
    held: bool = Field(description="whether this browser holds the name")
    passkeys: int = Field(description="the name's passkeys (counted for its holders only, else 0)")


class NameCode(BaseModel):
    name: str
    code: str = Field(description="8 signs, for POST /api/people/take")
    url: str = Field(description="/#take=CODE: the home page spends it")
    expires_at: str
    seconds: int


class NameTaken(BaseModel):
    name: str = Field(description="the name this browser holds from now on (its cookie is set)")


class PasskeyChallenge(BaseModel):
    ticket: str = Field(description="to send back with the browser's answer")
    options: dict[str, Any] = Field(description="for navigator.credentials (WebAuthn), binary fields in base64url")


class PasskeyCount(BaseModel):
    name: str
    passkeys: int
