"""Cards, suits, ranks, decks and their notation, shared by all three games.

Notation (a contract other tools rely on, described for people in docs/notation.md):

* a card is rank then suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``, suits ``S H D C``;
  the printed joker is ``JK``.  Parsing is case-insensitive and also accepts ``10``
  for ``T`` and the symbols ``♠ ♥ ♦ ♣``;
* a hand is ``spades.hearts.diamonds.clubs`` with rank characters, ``-`` or nothing
  for a void (``98.A75.2.643``);
* a deal is PBN-style, ``"<first seat>:<hand> <hand> ..."``, hands clockwise from the
  first seat.

Rank *order* is a property of a game, not of a card: Le Neuf ranks the ace high,
Elyigit's Nines ranks it low, rummy uses it at either end of a run.  So :class:`Rank`
only names the rank; each game supplies its own ordering (:func:`ace_high`,
:func:`ace_low`).
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, total_ordering

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "card_order",
    "JOKER",
    "NotationError",
    "parse_card",
    "parse_cards",
    "format_cards",
    "parse_hand",
    "format_hand",
    "parse_deal",
    "format_deal",
    "deck_52",
    "deck_36",
    "deck_54",
    "double_deck_54",
    "shuffled",
    "ace_high",
    "ace_low",
    "sort_hand",
]


class NotationError(ValueError):
    """A card, hand or deal was written in a way the notation does not allow."""


class Suit(enum.Enum):
    """The four suits, in the PBN order used by hand notation (spades first)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """Position in PBN order: spades 0, hearts 1, diamonds 2, clubs 3."""
        return _SUIT_ORDER.index(self)

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()
        suit = _SUIT_BY_TEXT.get(key) or _SUIT_BY_TEXT.get(text.strip())
        if suit is None:
            raise NotationError(
                f"{text!r} is not a suit: write S, H, D or C (or ♠ ♥ ♦ ♣)"
            )
        return suit

    def __str__(self) -> str:
        return self.value


_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_s.value] = _s
    _SUIT_BY_TEXT[_SUIT_SYMBOLS[_s]] = _s
    _SUIT_BY_TEXT[_s.name] = _s
# the outline symbols are common in copied text
_SUIT_BY_TEXT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})

SUITS: tuple[Suit, ...] = _SUIT_ORDER


class Rank(enum.IntEnum):
    """A rank by its printed face.  The value is the pip count (ace 1, king 13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        return _RANK_CHARS[self.value - 1]

    @property
    def long_name(self) -> str:
        """``10`` rather than ``T``: how a person reads the rank."""
        return "10" if self is Rank.TEN else self.char

    @property
    def next(self) -> Rank:
        """The rank after this one, wrapping king to ace (rummy's indicator rule)."""
        return Rank(self.value % 13 + 1)

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return Rank.TEN
        if len(key) == 1 and key in _RANK_CHARS:
            return Rank(_RANK_CHARS.index(key) + 1)
        raise NotationError(
            f"{text!r} is not a rank: write one of A 2 3 4 5 6 7 8 9 T J Q K (10 also works)"
        )

    def __str__(self) -> str:
        return self.char


_RANK_CHARS = "A23456789TJQK"
RANKS: tuple[Rank, ...] = tuple(Rank)


def ace_high(rank: Rank) -> int:
    """Trick-taking strength with the ace on top (Le Neuf, bridge): 2 low, A = 14."""
    return 14 if rank is Rank.ACE else rank.value


def ace_low(rank: Rank) -> int:
    """Strength with the ace at the bottom (Elyigit's Nines): A = 1 ... 9 = 9."""
    return rank.value


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or a printed joker (both ``None``).

    Two cards with the same rank and suit are equal even when they come from two
    decks; games that use two decks treat hands as multisets.
    """

    rank: Rank | None
    suit: Suit | None
    # derived once at creation: cards are compared and written very often
    code: str = field(init=False, compare=False, repr=False)
    _key: tuple[int, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise NotationError("a card has both a rank and a suit, or neither (a joker)")
        if self.rank is None or self.suit is None:
            code, key = "JK", (9, 0)
        else:
            code, key = self.rank.char + self.suit.value, (self.suit.index, -ace_high(self.rank))
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "_key", key)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @property
    def pretty(self) -> str:
        """For people: ``10♥``, ``A♠``, ``🃏`` is avoided so terminals stay aligned."""
        if self.rank is None or self.suit is None:
            return "Jkr"
        return self.rank.long_name + self.suit.symbol

    # equal and hashed by the code, which stands for (rank, suit) one to one: a string's hash is kept in it, where
    # the dataclass's own hashed a tuple of two enums (each a Python call), about a tenth of a random game's time
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code == other.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key < other._key

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


def card_order(card: Card) -> tuple[int, int]:
    """The key of the cards' own order (``sorted(cards, key=card_order) == sorted(cards)``, only faster)."""
    return card._key


JOKER = Card(None, None)

_CARD_RE = re.compile(r"^\s*(10|[A2-9TJQK])\s*([SHDC♠♥♦♣♤♡♢♧])\s*$", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Read one card: ``9H``, ``th``, ``10♥``, ``JK`` (joker)."""
    if not isinstance(text, str):
        raise NotationError(f"a card is written as text like '9H', not {text!r}")
    return _parse_card(text)


@lru_cache(maxsize=1024)
def _parse_card(text: str) -> Card:
    stripped = text.strip()
    if stripped.upper() in ("JK", "JOKER", "*"):
        return JOKER
    match = _CARD_RE.match(stripped)
    if not match:
        raise NotationError(
            f"{text!r} is not a card: write rank then suit, like 9H, TS, 10♥ or AC "
            "(ranks A 2-9 T J Q K, suits S H D C), or JK for a joker"
        )
    return Card(Rank.parse(match.group(1)), Suit.parse(match.group(2)))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a list of cards separated by spaces or commas (or an iterable of codes)."""
    items = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items if item]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


def sort_hand(cards: Iterable[Card], strength: Callable[[Rank], int] = ace_high, suit_order: Sequence[Suit] = SUITS) -> list[Card]:
    """Cards grouped by suit (in ``suit_order``), strongest first within a suit; jokers last."""
    if strength is ace_high and (suit_order is SUITS or tuple(suit_order) == SUITS):
        # the cards' own order (each card carries its key): no key worked out per card in Python
        # (every view of every seat after every move shows a hand sorted this way)
        return sorted(cards, key=card_order)
    order = {suit: i for i, suit in enumerate(suit_order)}

    def key(card: Card) -> tuple[int, int]:
        if card.rank is None or card.suit is None:
            return (len(order), 0)
        return (order[card.suit], -strength(card.rank))

    return sorted(cards, key=key)


def parse_hand(text: str) -> list[Card]:
    """Read a hand ``spades.hearts.diamonds.clubs``; ``-`` or nothing is a void.

    ``10`` may stand for ``T`` inside a suit.  A hand in the notation holds no jokers.
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand is text like '98.A75.2.643', not {text!r}")
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise NotationError(
            f"{text!r} is not a hand: write four suits separated by dots, "
            "spades.hearts.diamonds.clubs, with '-' for a void (e.g. 98.A75.2.643)"
        )
    cards: list[Card] = []
    for suit, part in zip(SUITS, parts, strict=True):
        body = part.strip()
        if body in ("", "-"):
            continue
        body = body.replace("10", "T")
        for char in body:
            try:
                rank = Rank.parse(char)
            except NotationError:
                raise NotationError(
                    f"{char!r} in the {suit.name.lower()} of hand {text!r} is not a rank "
                    "(use A 2-9 T J Q K)"
                ) from None
            card = Card(rank, suit)
            if card in cards:
                raise NotationError(f"{card.code} appears twice in hand {text!r}")
            cards.append(card)
    return cards


def format_hand(cards: Iterable[Card], strength: Callable[[Rank], int] = ace_high) -> str:
    """Write a hand as ``spades.hearts.diamonds.clubs``, strongest first in each suit."""
    by_suit: dict[Suit, list[Card]] = {suit: [] for suit in SUITS}
    for card in cards:
        if card.suit is None:
            raise NotationError("a joker cannot be written in hand notation")
        by_suit[card.suit].append(card)
    parts = []
    for suit in SUITS:
        ranks = sorted((c.rank for c in by_suit[suit] if c.rank), key=strength, reverse=True)
        parts.append("".join(r.char for r in ranks) or "-")
    return ".".join(parts)


def parse_deal(
    text: str,
    seats: Sequence[str],
    *,
    equal_sizes: bool = True,
    allowed: Iterable[Card] | None = None,
) -> dict[str, list[Card]]:
    """Read a PBN-style deal ``"<first seat>:<hand> <hand> ..."``.

    ``seats`` is the game's clockwise seat order; the hands are given clockwise from
    the first seat named, and there must be one per seat.  A *partial* deal (an
    ending) is allowed as long as every hand has the same size (``equal_sizes``).
    ``allowed`` limits the cards to a deck (for example the 36-card deck).
    The result maps each seat to its hand, in the game's seat order.
    """
    if not isinstance(text, str) or ":" not in text:
        raise NotationError(
            f"{text!r} is not a deal: write '<first seat>:<hand> <hand> ...', "
            f"for example '{seats[0]}:' followed by {len(seats)} hands"
        )
    first, _, rest = text.strip().partition(":")
    first = first.strip().upper()
    seat_names = [s.upper() for s in seats]
    if first not in seat_names:
        raise NotationError(f"{first!r} is not a seat here; the seats are {' '.join(seats)}")
    hands_text = rest.split()
    if len(hands_text) != len(seats):
        raise NotationError(
            f"the deal has {len(hands_text)} hands but this game has {len(seats)} seats "
            f"({' '.join(seats)})"
        )
    start = seat_names.index(first)
    hands: dict[str, list[Card]] = {}
    for offset, hand_text in enumerate(hands_text):
        seat = seats[(start + offset) % len(seats)]
        try:
            hands[seat] = parse_hand(hand_text)
        except NotationError as error:
            raise NotationError(f"hand of {seat}: {error}") from None
    seen: Counter[Card] = Counter(card for hand in hands.values() for card in hand)
    repeated = sorted(card.code for card, n in seen.items() if n > 1)
    if repeated:
        raise NotationError(f"cards dealt twice: {' '.join(repeated)}")
    if allowed is not None:
        deck = set(allowed)
        foreign = sorted(card.code for card in seen if card not in deck)
        if foreign:
            raise NotationError(f"cards not in this game's deck: {' '.join(foreign)}")
    if equal_sizes:
        sizes = {seat: len(hand) for seat, hand in hands.items()}
        if len(set(sizes.values())) > 1:
            listed = ", ".join(f"{seat} {n}" for seat, n in sizes.items())
            raise NotationError(f"every hand must have the same number of cards ({listed})")
    return {seat: hands[seat] for seat in seats}


def format_deal(hands: Mapping[str, Sequence[Card]], seats: Sequence[str], first: str | None = None, strength: Callable[[Rank], int] = ace_high
) -> str:
    """Write hands as a PBN-style deal, clockwise from ``first`` (default: first seat)."""
    first = first or seats[0]
    start = list(seats).index(first)
    ordered = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    return f"{first}:" + " ".join(format_hand(hands[seat], strength) for seat in ordered)


_DECK_52: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
_DECK_36: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS if rank.value <= 9)
# cards are frozen values, so every deck shares them (computer players ask for a deck at each decision)


def deck_52() -> list[Card]:
    """The standard 52 cards (Le Neuf)."""
    return list(_DECK_52)


def deck_36() -> list[Card]:
    """Ace to nine in each suit (Elyigit's Nines)."""
    return list(_DECK_36)


def deck_54() -> list[Card]:
    """52 cards and two printed jokers (rummy, 2 to 4 players)."""
    return deck_52() + [JOKER, JOKER]


def double_deck_54() -> list[Card]:
    """Two 54-card decks shuffled together (rummy, 5 to 8 players): every card twice."""
    return deck_54() + deck_54()


def shuffled(cards: Iterable[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy, using only the injected generator (never the global one)."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck
