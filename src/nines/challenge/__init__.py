"""The daily duplicate challenge: the day's deals, fair computer players, matchpoints (no web, no disk).

Each day (UTC) each game has a challenge: a fixed number of deals (:data:`CHALLENGES`) that everyone
plays from the same seat against the same computer players, and each deal's result is compared with
everyone else's on it (duplicate scoring, as in bridge's robot tournaments).

* **The deals** come from a :class:`~nines.randomness.MatchSecret` per day and game: HMAC-SHA256 of a
  server key with the day and the game (:func:`day_secret`), so one day's deals tell nothing of
  another's, and nobody without the key can work them out.  A challenge is a match of the game dealt
  from that secret, with options under which every deal's cards are drawn before any play touches the
  stream (rummy without rebuilt stocks): deal *k* is the same for everyone whatever was played before.
* **Duplicate fairness**: the computer players are made afresh at each deal with a generator drawn
  from the day's secret, the deal's number and their seat (:class:`DealSeeded`), so their decisions
  depend only on the deal and the moves made in it so far: two people who make the same moves meet
  the same answers and get the same result.
* **Matchpoints** (:func:`matchpoints`): on each deal a result beating another counts 1, a tie 1/2, as
  a percentage of the others who played the deal; the day is ranked by the average over its deals.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

import numpy as np
import orjson

from ..bots import Player, make_player
from ..bots.base import Decision
from ..games import get_game
from ..games.contract import GameState
from ..randomness import MatchSecret

__all__ = [
    "CHALLENGES",
    "CHALLENGE_PRESET",
    "ChallengeSpec",
    "DayScore",
    "DealSeeded",
    "challenge_over",
    "day_secret",
    "deal_results",
    "finished_deal_count",
    "matchpoints",
    "new_challenge",
    "play_challenge",
    "StandingTable",
    "standing_rows",
    "standing_table",
    "standings",
]


@dataclass(frozen=True)
class ChallengeSpec:
    """One game's daily challenge."""

    game: str
    deals: int
    """How many deals (rummy: hands) the challenge has."""
    seat: str
    """The person's seat, the same for everyone."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game's options (over its defaults): none lets the match end before :attr:`deals`."""
    bot: str = "expert"
    """The computer player at every other seat (partner included)."""


CHALLENGES: dict[str, ChallengeSpec] = {
    # three alone; counting down from 99, nobody reaches 0 within six deals (at most 5 points a deal)
    "neuf": ChallengeSpec("neuf", 6, "S", {"form": "three", "start_score": 99}),
    # the person South, a computer partner North; a target of 500 is never reached in eight deals
    "elyigit": ChallengeSpec("elyigit", 8, "S", {"target": 500}),
    # four players, three hands; a stock never rebuilt (the rebuild shuffles from the match's stream,
    # which would make the next hands depend on the play)
    "rummy": ChallengeSpec("rummy", 3, "1", {"players": 4, "hands": 3, "reshuffles": 0}),
}


CHALLENGE_PRESET = "challenge"
"""The preset name a challenge table is stored with: its match ends after its deals, its computer players are
made afresh at each deal (the server reads it when it rebuilds the table)."""


def day_secret(key: bytes, day: dt.date, game: str) -> MatchSecret:
    """The secret a day's challenge of ``game`` is dealt from: HMAC-SHA256 of the server's key."""
    if len(key) < 16:
        raise ValueError("a challenge key is at least 16 bytes")
    message = f"nines-challenge/1:{day.isoformat()}:{game}".encode()
    return MatchSecret(hmac.new(key, message, hashlib.sha256).digest())


def new_challenge(game: str, secret: MatchSecret) -> GameState:
    """The challenge's match (its first deal dealt), from the day's secret."""
    spec = CHALLENGES[game]
    rules = get_game(game)
    return rules.new_match(rules.options(None, dict(spec.options)), secret)


def bot_generator(secret: MatchSecret, deal: int, seat: str, name: str) -> random.Random:
    """A computer player's generator for one deal: from the day's secret (day and game), the deal and the seat."""
    return random.Random(secret.derive(f"challenge-player:{deal}:{seat}:{name}"))


class DealSeeded:
    """A computer player made afresh at every deal, its generator from (day, game, deal, seat) alone.

    Whatever happened in earlier deals, its decisions in a deal depend only on that deal's cards and the
    moves made in it so far (a player's memory of earlier deals, and how much of its generator they used,
    would otherwise carry one person's play into the next deal's answers)."""

    def __init__(self, bot: str, game: str, secret: MatchSecret, seat: str) -> None:
        self.bot = bot
        self.game = game
        self.secret = secret
        self.seat = seat
        self._deal: int | None = None
        self._player: Player | None = None

    @property
    def name(self) -> str:
        return self.bot

    def decide(self, view: Any) -> Decision:
        deal = int(getattr(view, "deal_number", 0) or 0)
        if self._player is None or deal != self._deal:
            self._deal = deal
            self._player = make_player(self.bot, self.game, bot_generator(self.secret, deal, self.seat, self.bot))
        return self._player.decide(view)


def finished_deal_count(record: Mapping[str, Any]) -> int:
    return sum(1 for deal in record.get("deals", []) if deal.get("result") is not None)


def challenge_over(game: str, state: GameState) -> bool:
    """The challenge is played: its deals are finished (or the match itself is over)."""
    return state.is_over or finished_deal_count(state.record()) >= CHALLENGES[game].deals


def _side(record: Mapping[str, Any], seat: str) -> str:
    sides = record.get("sides") or record.get("seats") or []
    if seat in sides:
        return seat
    return next((side for side in sides if seat in side), seat)


def deal_results(game: str, record: Mapping[str, Any], seat: str) -> list[float]:
    """The person's result in each finished deal of the challenge, higher is better: in Le Neuf the points
    taken off (scores count down), in Elyigit's Nines the side's points less the other side's, in rummy
    the penalty avoided (0 for going out)."""
    side = _side(record, seat)
    out: list[float] = []
    for deal in record.get("deals", [])[: CHALLENGES[game].deals]:
        result = deal.get("result")
        if result is None:
            break
        if game == "neuf":
            out.append(-float((result.get("score_change") or {}).get(side, 0)))
        elif game == "elyigit":
            change = result.get("score_change") or {}
            out.append(float(sum(v if k == side else -v for k, v in change.items())))
        else:
            out.append(-float((result.get("points") or {}).get(seat, 0)))
    return out


def play_challenge(game: str, secret: MatchSecret, person: Player, bot: str | None = None) -> tuple[list[float], GameState]:
    """Play a whole challenge with ``person`` at the challenge's seat (a script, tests, the load benchmark)
    and the day's computer players elsewhere; the person's result per deal, and the final state."""
    spec = CHALLENGES[game]
    state = new_challenge(game, secret)
    players: dict[str, Player] = {s: DealSeeded(bot or spec.bot, game, secret, s) for s in state.seats if s != spec.seat}
    players[spec.seat] = person
    while not challenge_over(game, state):
        seat = state.acting_seat
        assert seat is not None
        state.apply(players[seat].decide(state.view(seat)).action, by=seat)
    return deal_results(game, state.record(), spec.seat), state


@dataclass(frozen=True)
class DayScore:
    name: str
    percent: float
    """The average of the deals' matchpoint percentages."""
    deals: list[float | None]
    """Each deal's matchpoints in percent (``None``: not played)."""

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "percent": round(self.percent, 2), "deals": [None if d is None else round(d, 2) for d in self.deals]}


def matchpoints(results: Mapping[str, Sequence[float | None]]) -> dict[str, DayScore]:
    """Each name's matchpoints from their per-deal results (higher is better; ``None`` or a short list:
    the deal not played).  On a deal, beating another result counts 1 and a tie 1/2, as a percentage of
    the others who played it (a lone result scores 50); the day is the average over the deals played.

    Worked out per distinct result of a deal (results are few distinct numbers), not per pair: 10,000
    entries of six deals are 60,000 look-ups (``benchmarks/challenge_standings.py``)."""
    length = max((len(r) for r in results.values()), default=0)
    per_deal: list[dict[float, float]] = []
    for index in range(length):
        counts: Counter[float] = Counter()
        for row in results.values():
            value = row[index] if index < len(row) else None
            if value is not None:
                counts[float(value)] += 1
        played = sum(counts.values())
        points: dict[float, float] = {}
        below = 0
        for value in sorted(counts):
            ties = counts[value] - 1
            points[value] = 50.0 if played == 1 else 100.0 * (below + 0.5 * ties) / (played - 1)
            below += counts[value]
        per_deal.append(points)
    out = {}
    for name, row in results.items():
        deals: list[float | None] = [None] * length
        total, counted = 0.0, 0
        for index, result in enumerate(row):
            if result is not None:
                score = per_deal[index][float(result)]
                deals[index] = score
                total += score
                counted += 1
        out[name] = DayScore(name, total / counted if counted else 0.0, deals)
    return out


def standings(results: Mapping[str, Sequence[float | None]]) -> list[DayScore]:
    """The day's standings, best average first (then name)."""
    return sorted(matchpoints(results).values(), key=lambda s: (-s.percent, s.name))


class StandingTable:
    """A day's standings for a busy day (:func:`standing_table`): the names best first, each one's average and
    each deal's matchpoints (NaN: not played), rounded as :meth:`DayScore.as_dict` rounds them."""

    def __init__(self, names: list[str], percent: np.ndarray, deals: np.ndarray) -> None:
        self.names = names
        """Best first (the highest average, then the name)."""
        self.percent = percent
        self.deals = deals

    def rows(self) -> list[dict[str, Any]]:
        """The rows of :func:`standings`' ``as_dict()``: ``name``, ``percent``, ``deals``."""
        return [{"name": name, "percent": percent, "deals": [None if math.isnan(d) else d for d in deals]}
                for name, percent, deals in zip(self.names, self.percent.tolist(), self.deals.tolist(), strict=True)]

    def json(self) -> bytes:
        """:meth:`rows` as JSON text: orjson writes the numbers of all the rows at once (NaN as ``null``) and
        ``map`` puts each row together, with no Python object a row (with 10,000 rows, making them and
        collecting their garbage cost more than the arithmetic)."""
        if not self.names:
            return b"[]"
        numbers = orjson.OPT_SERIALIZE_NUMPY
        percent = orjson.dumps(self.percent, option=numbers)[1:-1].decode().split(",")
        deals = orjson.dumps(np.ascontiguousarray(self.deals), option=numbers)[2:-2].decode().split("],[")
        rows = map('{{"name":{},"percent":{},"deals":[{}]}}'.format, map(encode_basestring, self.names), percent, deals)
        return ("[" + ",".join(rows) + "]").encode()


def _rounded(values: np.ndarray) -> np.ndarray:
    """Python's ``round(value, 2)`` of each value (NaN stays NaN): numpy's where a hundred times the value is
    not within a millionth of a half (there both pick the same hundredth, and dividing it by 100 gives the
    double nearest to it, as Python's does), Python's own for the few others."""
    scaled = values * 100.0
    shown: np.ndarray = np.rint(scaled) / 100.0
    doubtful = np.abs(np.abs(scaled - np.trunc(scaled)) - 0.5) < 1e-6
    if doubtful.any():
        shown[doubtful] = [round(value, 2) for value in values[doubtful].tolist()]
    return shown


def standing_table(results: Mapping[str, Sequence[float | None]]) -> StandingTable:
    """The day's standings (:class:`StandingTable`): the same rows, to the last bit, as
    ``[s.as_dict() for s in standings(results)]``, worked out with numpy for a busy day.

    Each deal's results are sorted once (``numpy.unique``): a result's matchpoints come from how many results
    lie below it and how many equal it, so a deal of ``n`` results costs O(n log n), never a comparison per
    pair.  The arithmetic is :func:`matchpoints`' in the same order (per distinct result, then the deals summed
    left to right), and the rounding Python's own, so both give equal floats and equal rows."""
    names = sorted(results)
    rows = [results[name] for name in names]
    lengths = set(map(len, rows))
    length = max(lengths, default=0)
    count = len(names)
    if len(lengths) == 1:
        grid = np.array(rows, dtype=float).reshape(count, length)  # None becomes NaN: not played
    else:
        grid = np.full((count, length), np.nan)
        for index, row in enumerate(rows):
            if row:
                grid[index, : len(row)] = np.array(row, dtype=float)
    del rows
    total = np.zeros(count)
    counted = np.zeros(count, dtype=np.int64)
    points = np.full((count, length), np.nan)
    for deal in range(length):
        played = ~np.isnan(grid[:, deal])
        many = int(played.sum())
        distinct, which, counts = np.unique(grid[played, deal], return_inverse=True, return_counts=True)
        below = np.cumsum(counts) - counts
        each = np.full(distinct.size, 50.0) if many == 1 else 100.0 * (below + 0.5 * (counts - 1)) / (many - 1)
        points[played, deal] = each[which.reshape(-1)]
        total += np.where(played, points[:, deal], 0.0)  # adding 0.0 for a deal not played: the sum matchpoints() has
        counted += played
    percent = np.divide(total, counted, out=np.zeros(count), where=counted > 0)
    order = np.argsort(-percent, kind="stable")  # names are in order already: the best average, then the name
    return StandingTable([names[i] for i in order.tolist()], _rounded(percent[order]), _rounded(points[order]))


def standing_rows(results: Mapping[str, Sequence[float | None]]) -> list[dict[str, Any]]:
    """:func:`standings` as ``as_dict()`` rows, by :func:`standing_table`."""
    return standing_table(results).rows()
