"""Ratings for people and computer players, per game, on one scale (no web, no disk).

The mathematics is OpenSkill's (``openskill``), Weng-Lin's Bayesian approximation with the
Plackett-Luce model: it rates any number of sides, each of one player or a team, from their
order at the end of a match, ties included, which is every form the games here take:

* Le Neuf, three alone (or four alone): each player is a side, ranked by the final score
  (lower is better: the scores count down to 0); a match's winners first.
* Elyigit's Nines (and Le Neuf in partnerships): two sides of two, ranked by the match result.
* Nines rummy, two to eight players: each player a side, ranked by the totals (lower is better).

Plackett-Luce rather than Bradley-Terry or Thurstone-Mosteller: it is the model OpenSkill
recommends for many sides (its cost grows linearly with the sides, the pairwise models'
with their square) and it is the one whose updates the library's own tests check most.

A skill is ``mu`` and ``sigma`` on OpenSkill's scale (25 and 25/3 for a newcomer).  People see
it on the scale they know: ``rating = 1500 + 42 (mu - 25)`` and ``deviation = 42 sigma`` (a
newcomer is 1500 with a deviation of 350, Glicko's newcomer).  A rating is *provisional* until
its deviation falls below :data:`SETTLED_DEVIATION` (230): a player of three-player Le Neuf
gets there in about 20 matches of mixed results, a rummy player of four sooner.

A person whose seat was played by a stand-in for most of the match is rated as having lost it
(their side placed last, for them alone): leaving does not save a rating.  Computer players
are anchors: rated by their matches among themselves (:func:`rate_match` with
``rate_computers=True``), held fixed in matches with people.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = [
    "INITIAL",
    "LOWER_IS_BETTER",
    "SCALE",
    "SETTLED_DEVIATION",
    "BoardRow",
    "Display",
    "Participant",
    "Skill",
    "display",
    "leaderboard",
    "match_ranks",
    "model",
    "participants_from_record",
    "rate_match",
    "side_of",
]

SCALE = 42.0
"""Display points per OpenSkill point: a newcomer's sigma (25/3) shows as a deviation of 350."""

CENTRE = 1500.0
"""The display rating of OpenSkill's default mu (25)."""

SETTLED_DEVIATION = 230.0
"""A rating whose deviation is below this is settled (shown on the leaderboard); above, provisional."""

LOWER_IS_BETTER = {"neuf": True, "rummy": True, "elyigit": False}
"""How each game's final scores order the sides (Le Neuf counts down to 0, rummy adds penalties)."""


def model() -> PlackettLuce:
    """The model every rating here uses (OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A player's skill in one game, on OpenSkill's scale, and how many rated matches it comes from."""

    mu: float
    sigma: float
    matches: int = 0

    @classmethod
    def new(cls) -> Skill:
        base = model()
        return cls(float(base.mu), float(base.sigma), 0)


INITIAL = Skill.new()


@dataclass(frozen=True)
class Display:
    rating: int
    deviation: int
    provisional: bool


def display(skill: Skill) -> Display:
    """The rating people see: about 1500 for a newcomer, with its deviation and the provisional mark."""
    deviation = SCALE * skill.sigma
    return Display(round(CENTRE + SCALE * (skill.mu - INITIAL.mu)), round(deviation), deviation >= SETTLED_DEVIATION)


def shown_change(before: Skill, after: Skill) -> int:
    """The change of the shown rating one match made (``+12``, ``-7``)."""
    return display(after).rating - display(before).rating


@dataclass(frozen=True)
class Participant:
    """Who played one seat of a rated match: a person's name or a computer player's, and its side."""

    name: str
    side: str
    computer: bool = False
    stood_in: bool = False
    """A person whose seat a stand-in played for most of the match: rated as having lost."""


def side_of(record: Mapping[str, Any], seat: str) -> str:
    """The side a seat scores for: itself, or the partnership whose name contains it (``NS``)."""
    sides = record.get("sides") or record.get("seats") or []
    if seat in sides:
        return seat
    return next((side for side in sides if seat in side), seat)


def match_ranks(record: Mapping[str, Any]) -> dict[str, int]:
    """Each side's place at the end of a finished match (1 is best, equal places for equal results):
    the winners first, then the others by their final scores in the game's direction."""
    game = str(record.get("game"))
    sides = [str(s) for s in (record.get("sides") or record.get("seats") or [])]
    scores = record.get("final_scores") or {}
    winners = {side_of(record, str(w)) for w in record.get("winners") or []}
    lower = LOWER_IS_BETTER.get(game, False)

    def key(side: str) -> tuple[int, float]:
        score = scores.get(side)
        value = float(score) if isinstance(score, int | float) else math.inf if lower else -math.inf
        return (0 if side in winners else 1, value if lower else -value)

    keys = {side: key(side) for side in sides}
    return {side: 1 + sum(1 for other in sides if keys[other] < keys[side]) for side in sides}


def participants_from_record(record: Mapping[str, Any], people: Mapping[str, str], computers: Mapping[str, str],
                             stood_in: Iterable[str] = ()) -> list[Participant]:
    """The participants of a web table's match: ``people`` and ``computers`` map seats to names
    (the seats a computer player owns; a stand-in at a person's seat is the person's)."""
    out = []
    gone = set(stood_in)
    for seat in (str(s) for s in record.get("seats") or []):
        if seat in people:
            out.append(Participant(people[seat], side_of(record, seat), False, seat in gone))
        elif seat in computers:
            out.append(Participant(computers[seat], side_of(record, seat), True))
    return out


def rate_match(participants: Sequence[Participant], ranks: Mapping[str, int], skills: Mapping[str, Skill],
               rate_computers: bool = False) -> dict[str, Skill]:
    """New skills after one match, for the people in it (and the computer players with ``rate_computers``).

    ``ranks`` gives each side's place (:func:`match_ranks`); ``skills`` each name's skill before the match
    (a name missing is a newcomer).  A name met at several seats (a computer player playing itself) is
    rated from its first seat.  A person who ``stood_in`` is rated from the same match with their side last.
    """
    sides = list(dict.fromkeys(p.side for p in participants))
    if len(sides) < 2:
        return {}
    base = model()

    def rate(order: Mapping[str, int]) -> dict[tuple[str, int], Skill]:
        teams = [[(i, p) for i, p in enumerate(participants) if p.side == side] for side in sides]
        before = [[_rating(base, skills.get(p.name, INITIAL)) for _, p in team] for team in teams]
        after = base.rate(before, ranks=[float(order[side]) for side in sides])
        out: dict[tuple[str, int], Skill] = {}
        for team, new_team in zip(teams, after, strict=True):
            for (i, p), new in zip(team, new_team, strict=True):
                old = skills.get(p.name, INITIAL)
                out[(p.name, i)] = Skill(float(new.mu), float(new.sigma), old.matches + 1)
        return out

    actual = rate(ranks)
    last = max(ranks.values()) + 1
    result: dict[str, Skill] = {}
    for index, p in enumerate(participants):
        if p.name in result or (p.computer and not rate_computers):
            continue
        if p.stood_in and not p.computer:
            lost = {side: (last if side == p.side else place) for side, place in ranks.items()}
            result[p.name] = rate(lost)[(p.name, index)]
        else:
            result[p.name] = actual[(p.name, index)]
    return result


def _rating(base: PlackettLuce, skill: Skill) -> Any:
    return base.rating(mu=skill.mu, sigma=skill.sigma)


@dataclass(frozen=True)
class BoardRow:
    name: str
    rating: int
    deviation: int
    matches: int
    provisional: bool
    computer: bool

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rating": self.rating, "deviation": self.deviation, "matches": self.matches,
                "provisional": self.provisional, "computer": self.computer}


def leaderboard(entries: Iterable[tuple[str, Skill, bool]]) -> list[BoardRow]:
    """The leaderboard of one game from ``(name, skill, computer)``: people with a settled rating and every
    computer player (the marks a newcomer measures against, shown provisional or not), best first (highest
    rating, then smallest deviation, then name)."""
    rows = []
    for name, skill, computer in entries:
        shown = display(skill)
        if shown.provisional and not computer:
            continue
        rows.append(BoardRow(name, shown.rating, shown.deviation, skill.matches, shown.provisional, computer))
    rows.sort(key=lambda r: (-r.rating, r.deviation, r.name))
    return rows
