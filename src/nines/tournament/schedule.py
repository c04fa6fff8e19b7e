"""Duplicate scheduling: the same matches replayed with the players rotated through the seats.

Match ``m`` of a tournament with seed ``S`` is dealt from its own seed, derived from
``(S, m)``; it is played once for every distinct rotation of the line-up, so each
player sits in each seat on the same cards and the luck of the deal cancels out.
Every player in every game gets a generator seeded from ``(S, m, rotation, seat)``,
so a tournament's numbers depend only on its seed and line-up, never on how many
worker processes ran it or in which order the games finished.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    """One match played under one seating: the unit of work sent to a worker."""

    match: int
    rotation: int
    match_seed: int
    seating: tuple[str, ...]  # player name per seat, in the game's seat order


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes and Python runs)."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


def seatings(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct cyclic rotations of a line-up (one name per seat).

    ``expert,basic,basic`` gives three seatings (expert in each seat);
    ``expert,basic,expert,basic`` gives two (the experts sit N-S, then E-W).
    """
    n = len(lineup)
    out: list[tuple[str, ...]] = []
    for shift in range(n):
        seating = tuple(lineup[(i - shift) % n] for i in range(n))
        if seating not in out:
            out.append(seating)
    return out


def jobs_for_match(seed: int, match: int, lineup: Sequence[str]) -> list[Job]:
    match_seed = derive_seed("match", seed, match)
    return [Job(match, r, match_seed, seating) for r, seating in enumerate(seatings(lineup))]
