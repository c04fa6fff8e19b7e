"""A plainly written reference for the solver tests: the play rules written again from
RULES.md, and a brute-force minimax over every legal card (no pruning, no equivalent
cards, no bounds), memoized on the whole position.

It shares no code with the solver.  Hands are sets of card numbers (``suit * 13 +
strength``, strength 0 the game's weakest rank) kept in plain Python ints as bit sets,
only so that memoizing is cheap.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from nines.cards import SUITS, Card, Rank, Suit, ace_high, ace_low, deck_36, deck_52

Strength = Callable[[Rank], int]


@dataclass(frozen=True)
class Game:
    name: str
    form: str
    seats: tuple[str, ...]
    strength: Strength
    lowest: int
    elyigit: bool
    deck: tuple[Card, ...]

    def number(self, card: Card) -> int:
        assert card.suit is not None and card.rank is not None
        return card.suit.index * 13 + self.strength(card.rank) - self.lowest

    def card(self, number: int) -> Card:
        suit, strength = divmod(number, 13)
        rank = next(r for r in Rank if self.strength(r) == strength + self.lowest)
        return Card(rank, SUITS[suit])


ELYIGIT = Game("elyigit", "partners", ("N", "E", "S", "W"), ace_low, 1, True, tuple(deck_36()))
NEUF3 = Game("neuf", "three", ("S", "W", "E"), ace_high, 2, False, tuple(deck_52()))
NEUF_PARTNERS = Game("neuf", "partners", ("N", "E", "S", "W"), ace_high, 2, False, tuple(deck_52()))
NEUF_INDIVIDUAL = Game("neuf", "individual", ("N", "E", "S", "W"), ace_high, 2, False, tuple(deck_52()))
ALL_GAMES = (ELYIGIT, NEUF3, NEUF_PARTNERS, NEUF_INDIVIDUAL)

SUIT_BITS = [((1 << 13) - 1) << (13 * s) for s in range(4)]


def _cards(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def legal_numbers(hand: int, table: Sequence[int], trump: int | None, elyigit: bool) -> list[int]:
    """The card numbers of ``hand`` that may be played to ``table`` (led card first)."""
    if not table:
        return _cards(hand)
    led = table[0] // 13
    follow = hand & SUIT_BITS[led]
    if not elyigit:
        return _cards(follow or hand)
    if follow:
        # follow suit, and beat the best card of the led suit on the table if you can
        best = max(c for c in table if c // 13 == led)
        higher = [c for c in _cards(follow) if c > best]
        return higher or _cards(follow)
    trumps = hand & SUIT_BITS[trump] if trump is not None else 0
    if not trumps:
        return _cards(hand)  # neither the led suit nor a trump: anything
    down = [c for c in table if c // 13 == trump]
    if not down:
        return _cards(trumps)  # void: trump
    over = [c for c in _cards(trumps) if c > max(down)]
    return over or _cards(trumps)  # over-trump if you can, else under-trump


def legal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None, game: Game) -> list[Card]:
    bits = sum(1 << game.number(card) for card in hand)
    numbers = legal_numbers(bits, [game.number(card) for card in trick], None if trump is None else trump.index, game.elyigit)
    return [game.card(n) for n in numbers]


def winner(table: Sequence[int], trump: int | None) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led suit."""
    best = 0
    for i, card in enumerate(table):
        top = table[best]
        if card // 13 == top // 13:
            if card > top:
                best = i
        elif trump is not None and card // 13 == trump:
            best = i
    return best


def brute_value(
    game: Game,
    hands: Mapping[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card],
    counted: frozenset[str],
) -> int:
    """Most tricks the seats in ``counted`` take of the remaining ones (current trick included),
    the other seats playing together against them."""
    seats = game.seats
    n = len(seats)
    tr = None if trump is None else trump.index
    mine = tuple(seat in counted for seat in seats)

    @cache
    def value(held: tuple[int, ...], lead: int, table: tuple[int, ...]) -> int:
        if len(table) == n:
            w = (lead + winner(table, tr)) % n
            return mine[w] + value(held, w, ())
        p = (lead + len(table)) % n
        if not held[p]:
            return 0
        results = [
            value(held[:p] + (held[p] & ~(1 << card),) + held[p + 1 :], lead, table + (card,))
            for card in legal_numbers(held[p], table, tr, game.elyigit)
        ]
        return max(results) if mine[p] else min(results)

    held = tuple(sum(1 << game.number(card) for card in hands[seat]) for seat in seats)
    return value(held, seats.index(leader), tuple(game.number(card) for card in played))


def brute_scores(
    game: Game,
    hands: Mapping[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card],
    counted: frozenset[str],
) -> dict[Card, int]:
    """For each legal card of the seat to play: the counted seats' tricks after it."""
    seats = game.seats
    mover = seats[(seats.index(leader) + len(played)) % len(seats)]
    out = {}
    for card in legal(hands[mover], played, trump, game):
        after = dict(hands)
        after[mover] = [c for c in hands[mover] if c != card]
        out[card] = brute_value(game, after, trump, leader, [*played, card], counted)
    return out


def random_ending(game: Game, rng: random.Random, tricks: int, in_progress: int = 0, trump: Suit | str | None = "random"):
    """Random hands of ``tricks`` cards, a random trump (unless given) and leader, and
    ``in_progress`` cards already played legally to the current trick.
    Returns (hands, trump, leader, played)."""
    n = len(game.seats)
    cards = rng.sample(game.deck, n * tricks)
    hands = {seat: cards[i * tricks : (i + 1) * tricks] for i, seat in enumerate(game.seats)}
    if trump == "random":
        trump = rng.choice([None, *SUITS])
    leader = rng.choice(game.seats)
    played: list[Card] = []
    li = game.seats.index(leader)
    for k in range(in_progress):
        seat = game.seats[(li + k) % n]
        choice = rng.choice(legal(hands[seat], played, trump, game))  # type: ignore[arg-type]
        hands[seat] = [c for c in hands[seat] if c != choice]
        played.append(choice)
    return hands, trump, leader, played
