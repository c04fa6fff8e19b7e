"""Matches among computer players that anchor their ratings (``nines ratings GAME --anchor N``).

Short matches keep it cheap (Le Neuf from 3 points, Elyigit's Nines to 15, one rummy hand); the line-up
turns so that each computer player meets each other one at every seat.  No I/O: the caller stores the
ratings (:func:`nines.ratings.rate_match` with ``rate_computers=True``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import make_player, play_match, players_for
from ..games import get_game
from . import Participant, match_ranks, participants_from_record

__all__ = ["ANCHOR_OPTIONS", "AnchorMatch", "anchor_matches", "line_ups"]

ANCHOR_OPTIONS: dict[str, dict[str, Any]] = {
    "neuf": {"form": "three", "start_score": 3},
    "elyigit": {"target": 15},
    "rummy": {"players": 4, "hands": 1, "reshuffles": 2},
}

DEFAULT_PLAYERS = ("random", "basic", "ismcts", "expert")


@dataclass(frozen=True)
class AnchorMatch:
    number: int
    participants: list[Participant]
    ranks: dict[str, int]
    record: dict[str, Any]


def line_ups(game: str, players: Sequence[str], seats: Sequence[str]) -> Iterator[list[str]]:
    """The computer player at each seat, match after match: in partnerships one player per side, else a
    different player at each seat (the players repeated when the seats outnumber them), turning."""
    sides = 2 if game == "elyigit" else len(seats)
    groups = [list(p) for p in itertools.permutations(players, min(sides, len(players)))]
    for group in itertools.cycle(groups):
        if game == "elyigit":
            yield [group[i % 2] for i in range(len(seats))]  # N E S W: NS the first, EW the second
        else:
            yield [group[i % len(group)] for i in range(len(seats))]


def anchor_matches(game: str, count: int, seed: int = 0, players: Sequence[str] = DEFAULT_PLAYERS,
                   start: int = 0) -> Iterator[AnchorMatch]:
    """``count`` short matches among the computer players (each from ``seed`` and its number), numbered from
    ``start`` (the line-ups go on turning from there: the matches ``start`` on of a longer series)."""
    spec = get_game(game)
    options = spec.options(None, ANCHOR_OPTIONS.get(game, {}))
    available = [p for p in players if p in players_for(game)]
    seats = spec.new_match(options, 0).seats
    turning = itertools.islice(line_ups(game, available, seats), start, None)
    for number, line_up in zip(range(start, start + count), turning, strict=False):
        state = spec.new_match(options, seed * 100_003 + number)
        rng = random.Random(f"anchor:{seed}:{number}")
        by_seat = dict(zip(seats, line_up, strict=True))
        bots = {seat: make_player(name, game, random.Random(rng.random())) for seat, name in by_seat.items()}
        play_match(state, bots)
        record = state.record()
        yield AnchorMatch(number, participants_from_record(record, {}, by_seat), match_ranks(record), record)
