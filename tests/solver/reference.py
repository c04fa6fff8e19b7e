"""A plainly written reference for the solver tests: the play rules and a brute-force
minimax over every legal card (no pruning, no equivalences), memoized on the position.

It shares no code with the solver: the rules are written again here from RULES.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from nines.cards import SUITS, Card, Rank, Suit, ace_high, ace_low, deck_36, deck_52

Strength = Callable[[Rank], int]


@dataclass(frozen=True)
class Game:
    name: str
    form: str
    seats: tuple[str, ...]
    strength: Strength
    elyigit: bool
    deck: tuple[Card, ...]


ELYIGIT = Game("elyigit", "partners", ("N", "E", "S", "W"), ace_low, True, tuple(deck_36()))
NEUF3 = Game("neuf", "three", ("S", "W", "E"), ace_high, False, tuple(deck_52()))
NEUF_PARTNERS = Game("neuf", "partners", ("N", "E", "S", "W"), ace_high, False, tuple(deck_52()))
NEUF_INDIVIDUAL = Game("neuf", "individual", ("N", "E", "S", "W"), ace_high, False, tuple(deck_52()))
ALL_GAMES = (ELYIGIT, NEUF3, NEUF_PARTNERS, NEUF_INDIVIDUAL)


def power(card: Card, strength: Strength) -> int:
    assert card.rank is not None
    return strength(card.rank)


def legal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None, game: Game) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (led card first)."""
    if not trick:
        return list(hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    if not game.elyigit:
        return follow or list(hand)
    if follow:
        top = max(power(c, game.strength) for c in trick if c.suit == led)
        higher = [c for c in follow if power(c, game.strength) > top]
        return higher or follow
    trumps = [c for c in hand if trump is not None and c.suit == trump]
    if not trumps:
        return list(hand)
    down = [power(c, game.strength) for c in trick if c.suit == trump]
    if not down:
        return trumps
    over = [c for c in trumps if power(c, game.strength) > max(down)]
    return over or trumps


def winner(trick: Sequence[Card], trump: Suit | None, strength: Strength) -> int:
    best = 0
    for i, card in enumerate(trick):
        top = trick[best]
        if card.suit == top.suit and power(card, strength) > power(top, strength):
            best = i
        elif card.suit == trump and top.suit != trump:
            best = i
    return best


def brute_value(
    game: Game,
    hands: dict[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card],
    counted: frozenset[str],
) -> int:
    """Most tricks the seats in ``counted`` take of the remaining ones (current trick included)."""
    seats = game.seats
    n = len(seats)

    @lru_cache(maxsize=None)
    def value(held: tuple[frozenset[Card], ...], lead: int, table: tuple[Card, ...]) -> int:
        if len(table) == n:
            w = (lead + winner(table, trump, game.strength)) % n
            return (seats[w] in counted) + value(held, w, ())
        p = (lead + len(table)) % n
        if not held[p]:
            return 0
        results = []
        for card in legal(sorted(held[p]), table, trump, game):
            after = held[:p] + (held[p] - {card},) + held[p + 1 :]
            results.append(value(after, lead, table + (card,)))
        return max(results) if seats[p] in counted else min(results)

    held = tuple(frozenset(hands[s]) for s in seats)
    return value(held, seats.index(leader), tuple(played))


def random_ending(game: Game, rng: random.Random, tricks: int, in_progress: int = 0):
    """Random hands of ``tricks`` cards, a random trump and leader, and ``in_progress`` cards
    already played legally to the current trick.  Returns (hands, trump, leader, played)."""
    n = len(game.seats)
    cards = rng.sample(game.deck, n * tricks)
    hands = {seat: cards[i * tricks : (i + 1) * tricks] for i, seat in enumerate(game.seats)}
    trump = rng.choice([None, *SUITS])
    leader = rng.choice(game.seats)
    played: list[Card] = []
    li = game.seats.index(leader)
    for k in range(in_progress):
        seat = game.seats[(li + k) % n]
        choice = rng.choice(legal(sorted(hands[seat]), played, trump, game))
        hands[seat] = [c for c in hands[seat] if c != choice]
        played.append(choice)
    return hands, trump, leader, played
