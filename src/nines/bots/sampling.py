"""Dealing the unseen cards in a way consistent with what a seat knows.

A player who cannot see the other hands imagines them: it deals the cards it has
not seen to the hands it cannot see, each hand getting exactly the number of cards
it holds, and no hand getting a card it is known not to hold (a suit it showed out
of, a card above one it was forced to beat, a card the player saw elsewhere).

:func:`deal_unseen` does the dealing.  It is exact (uniform over every consistent
deal) when nothing is known about the hidden hands, and close to uniform otherwise:
the cards that some hand cannot hold are placed first, one at a time, each going to
one of the hands allowed to take it with chance proportional to the room left in
that hand, and the cards any hand may hold are then shuffled into the room left.
A choice that would leave the rest impossible to place (checked with Hall's
condition over the few hidden hands) is never made, so the dealing always succeeds
when any consistent deal exists.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from typing import TypeVar

from .tricksim import TrickPosition

__all__ = ["InconsistentKnowledge", "count_consistent", "deal_unseen", "resample"]

T = TypeVar("T", bound=Hashable)
W = TypeVar("W")  # anything drawn again in proportion to weights (a deal, a hand)


class InconsistentKnowledge(ValueError):
    """No deal fits what is known (a bug in the caller's reading of the view)."""


def deal_unseen(
    pool: Sequence[T],
    sizes: Sequence[int],
    forbidden: Sequence[Collection[T]] | None,
    rng: random.Random,
) -> list[list[T]]:
    """Deal ``pool`` into hands of ``sizes`` so that hand ``h`` gets nothing in ``forbidden[h]``.

    ``sum(sizes)`` must equal ``len(pool)``.  Raises :class:`InconsistentKnowledge`
    when no such deal exists.
    """
    k = len(sizes)
    if sum(sizes) != len(pool):
        raise InconsistentKnowledge(f"{len(pool)} unseen cards for hands holding {sum(sizes)} in all")
    if not forbidden or not any(forbidden):
        cards = list(pool)
        rng.shuffle(cards)
        return _slice(cards, sizes)
    full = 0
    for h in range(k):
        if sizes[h] > 0:
            full |= 1 << h
    # Group the constrained cards by which hands may hold them.
    free: list[T] = []
    constrained: list[tuple[T, int]] = []
    for card in pool:
        pattern = 0
        for h in range(k):
            if sizes[h] > 0 and card not in forbidden[h]:
                pattern |= 1 << h
        if pattern == 0:
            raise InconsistentKnowledge(f"no hidden hand can hold {card}")
        if pattern == full:
            free.append(card)
        else:
            constrained.append((card, pattern))
    room = list(sizes)
    counts: dict[int, int] = {}
    for _, pattern in constrained:
        counts[pattern] = counts.get(pattern, 0) + 1
    counts[full] = counts.get(full, 0) + len(free)
    if not _feasible(counts, room):
        raise InconsistentKnowledge("the hidden hands cannot be filled consistently with what is known")
    hands: list[list[T]] = [[] for _ in range(k)]
    # The most constrained cards first: they have the fewest places to go.
    rng.shuffle(constrained)
    constrained.sort(key=lambda item: item[1].bit_count())
    for card, pattern in constrained:
        counts[pattern] -= 1
        choices = [h for h in range(k) if pattern >> h & 1 and room[h] > 0]
        weights = [room[h] for h in choices]
        while True:
            h = _weighted(choices, weights, rng)
            room[h] -= 1
            if _feasible(counts, room):
                break
            room[h] += 1
            i = choices.index(h)
            del choices[i], weights[i]
            if not choices:  # pragma: no cover - excluded by the check before the loop
                raise InconsistentKnowledge("the hidden hands cannot be filled consistently")
        hands[h].append(card)
    rng.shuffle(free)
    start = 0
    for h in range(k):
        hands[h].extend(free[start:start + room[h]])
        start += room[h]
    return hands


def resample(candidates: Sequence[W], weights: Sequence[float], count: int, rng: random.Random) -> list[W]:
    """``count`` draws from ``candidates`` in proportion to ``weights`` (systematic resampling).

    Used to turn deals sampled uniformly into deals sampled by how well they explain
    what the other players chose (a bid, a pass, keeping or exchanging a hand).
    """
    total = sum(weights)
    if total <= 0:
        return [candidates[i % len(candidates)] for i in range(count)]
    step = total / count
    position = rng.random() * step
    out: list[W] = []
    cumulative = 0.0
    i = -1
    for _ in range(count):
        while cumulative <= position and i + 1 < len(candidates):
            i += 1
            cumulative += weights[i]
        out.append(candidates[i])
        position += step
    return out


def count_consistent(
    pool: Sequence[T], sizes: Sequence[int], forbidden: Sequence[Collection[T]]
) -> int:
    """How many consistent deals exist (brute force; for tests on tiny positions)."""
    from itertools import combinations

    def rec(cards: tuple[T, ...], h: int) -> int:
        if h == len(sizes):
            return 1 if not cards else 0
        total = 0
        for chosen in combinations(range(len(cards)), sizes[h]):
            picked = [cards[i] for i in chosen]
            if any(c in forbidden[h] for c in picked):
                continue
            rest = tuple(c for i, c in enumerate(cards) if i not in chosen)
            total += rec(rest, h + 1)
        return total

    return rec(tuple(pool), 0)


def _slice(cards: list[T], sizes: Sequence[int]) -> list[list[T]]:
    hands = []
    start = 0
    for size in sizes:
        hands.append(cards[start:start + size])
        start += size
    return hands


def _weighted(choices: list[int], weights: list[int], rng: random.Random) -> int:
    total = sum(weights)
    x = rng.random() * total
    for choice, weight in zip(choices, weights, strict=True):
        x -= weight
        if x < 0:
            return choice
    return choices[-1]


def _feasible(counts: dict[int, int], room: Sequence[int]) -> bool:
    """Hall's condition: every set of hands can be filled from the cards they may take."""
    k = len(room)
    for subset in range(1, 1 << k):
        need = 0
        for h in range(k):
            if subset >> h & 1:
                need += room[h]
        if need == 0:
            continue
        have = 0
        for pattern, n in counts.items():
            if pattern & subset:
                have += n
        if have < need:
            return False
    return True


class SampledTrickWorlds:
    """What a trick-game seat knows, able to deal the unseen cards into a full position.

    Mixed into each game's frozen knowledge dataclass, which provides the attributes
    named below (cards as the trick simulator's integers).
    """

    seats: tuple[str, ...]
    trump: int
    hands_known: dict[str, tuple[int, ...]]  # holder -> cards known to be there
    holders: tuple[str, ...]  # holders with unseen cards
    sizes: tuple[int, ...]  # how many unseen cards each of them holds
    forbidden: tuple[frozenset[int], ...]  # cards each of them cannot hold (voids shown, ...)
    pool: tuple[int, ...]  # the unseen cards
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]

    def sample_hands(self, rng: random.Random) -> dict[str, list[int]]:
        """One full assignment of cards to every holder consistent with the knowledge."""
        dealt = deal_unseen(self.pool, self.sizes, self.forbidden, rng)
        hands = {holder: list(cards) for holder, cards in self.hands_known.items()}
        hands.update(zip(self.holders, dealt, strict=True))
        return hands

    def sample_position(self, rng: random.Random) -> TrickPosition:
        """A world in play: every hand dealt, the trick in progress and the tricks won as they are."""
        hands = self.sample_hands(rng)
        return TrickPosition(
            hands=[hands[seat] for seat in self.seats],
            trump=self.trump,
            leader=self.leader,
            trick=list(self.trick),
            won=list(self.won),
            tricks_played=sum(self.won),
        )
