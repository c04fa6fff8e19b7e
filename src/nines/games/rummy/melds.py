"""Runs and monkeys: exact validation of a set, and enumeration of the sets a hand can lay.

Rules applied (seed 002, RULES.md "Nines rummy"):

* a **run** is a line of consecutive ranks in one suit; the ace is low (A-2-3) or
  high (Q-K-A), never between a king and a two (K-A-2);
* a **monkey** is 3 or 4 cards of one rank in different suits; like a run it may be all
  wild (seed 002: a wild stands in for any card a legal run or monkey needs), unless the
  ``natural_in_monkey`` option asks for one natural card of its rank;
* a **wild** (a printed joker, or a card of the wild rank) may stand for any card a
  run or monkey needs, and says which when it is laid (``JK=9H``); a card of the wild
  rank may also be played as itself (``TH``).

A run's cards sit at *positions* 1 to 14: position 1 is the low ace, 2 to 13 the pip
and court ranks, 14 the high ace.  A run is an unbroken stretch of positions.  When a
set of cards could lie either way (an ace with every rank from two to king), the ace
is taken as low: the run then waits for its high ace, which changes nothing a player
can do with it.

A set is the cards laid and the cards they stand for.  Which wild sits in which place is
the player's (seed 002: the wild is laid standing for the card the player declares), or,
under the ``wild_places=rule`` option, a rule (:func:`pair_wilds`) that gives every set one
written form; the enumeration lists each set once in rule form, and
:func:`declared_variants` gives every other placement of the same cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from ...cards import JOKER, SUITS, Card, NotationError, Rank, Suit, parse_card
from ..contract import IllegalAction
from .indicator import Wilds

LOW_ACE = 1
HIGH_ACE = 14
RUN_MIN = 3
"""Once a player has opened, a new run may have as few as three cards."""
MONKEY_MIN = 3
MONKEY_MAX = 4


class MeldError(IllegalAction):
    """The cards do not make a legal run or monkey; the message says why."""


def rank_at(position: int) -> Rank:
    """The rank at a run position (1 and 14 are both the ace)."""
    if position in (LOW_ACE, HIGH_ACE):
        return Rank.ACE
    return Rank(position)


def card_at(suit: Suit, position: int) -> Card:
    """The card at a run position of a suit."""
    return _CARD_AT[suit][position]


_CARD_AT: dict[Suit, tuple[Card, ...]] = {  # index 0 unused
    suit: (JOKER,) + tuple(Card(rank_at(pos), suit) for pos in range(LOW_ACE, HIGH_ACE + 1)) for suit in SUITS
}


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """One card laid in a set and the card it stands for.

    A natural card stands for itself (written ``9H``); a wild stands for the card it
    was declared as when laid (written ``JK=9H`` or, for a card of the wild rank,
    ``TC=9H``) and keeps that meaning for the rest of the hand.
    """

    card: Card
    stands_for: Card
    # kept from stable card numbers (not from enum hashes), so it survives pickling
    _hash: int = field(init=False, repr=False, compare=False)
    _natural: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_natural", self.card == self.stands_for)
        object.__setattr__(self, "_hash", hash((_card_code(self.card), _card_code(self.stands_for))))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def natural(cls, card: Card) -> Placement:
        return cls(card, card)

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read ``9H`` (a card as itself) or ``JK=9H`` (a wild and what it stands for)."""
        raw = str(text).strip()
        card_text, sep, meaning_text = raw.partition("=")
        try:
            card = parse_card(card_text)
            meaning = parse_card(meaning_text) if sep else card
        except NotationError as error:
            raise IllegalAction.of("syntax.card", f"{raw!r}: {error}", text=raw) from None
        if meaning.is_joker:
            if card.is_joker:
                raise IllegalAction.of(
                    "meld.joker_unsaid", f"{raw!r}: a joker laid in a set must say which card it stands for, e.g. JK=9H", text=raw
                )
            raise IllegalAction.of(
                "meld.wild_for_joker", f"{raw!r}: a wild stands for a real card (rank and suit), never for a joker", text=raw
            )
        return cls(card, meaning)

    @property
    def is_natural(self) -> bool:
        """Played as its own printed card (a card of the wild rank may be, too)."""
        return self._natural

    @property
    def text(self) -> str:
        return self.card.code if self.is_natural else f"{self.card.code}={self.stands_for.code}"

    def __str__(self) -> str:
        return self.text


def _card_code(card: Card) -> int:
    if card.rank is None or card.suit is None:
        return 52
    return card.suit.index * 13 + card.rank.value - 1


# -- shapes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunShape:
    """A legal run: its suit, its stretch of positions, its cards in order."""

    suit: Suit
    low: int
    high: int
    placements: tuple[Placement, ...]

    @property
    def kind(self) -> str:
        return "run"


@dataclass(frozen=True, slots=True)
class MonkeyShape:
    """A legal monkey: its rank and its cards in suit order (S H D C)."""

    rank: Rank
    placements: tuple[Placement, ...]

    @property
    def kind(self) -> str:
        return "monkey"

    @property
    def suits(self) -> tuple[Suit, ...]:
        return tuple(p.stands_for.suit for p in self.placements)  # type: ignore[misc]


Shape = RunShape | MonkeyShape


def check_wild_uses(placements: Sequence[Placement], wilds: Wilds) -> None:
    """Every card standing for another card must be a wild (rule: only wilds stand in)."""
    for p in placements:
        if p.stands_for.is_joker:
            raise MeldError.of("meld.wild_for_joker", f"{p.text}: a wild stands for a real card, never for a joker", text=p.text)
        if not p.is_natural and not wilds.is_wild(p.card):
            raise MeldError.of(
                "meld.not_wild",
                f"{p.card.code} is not wild in this hand, so it can only be played as itself, "
                f"not as {p.stands_for.code} ({wilds.describe()})",
                card=p.card.code, as_card=p.stands_for.code,
            )


def _run_positions(placements: Sequence[Placement]) -> list[int]:
    """Positions of a run's cards, the ace placed low or high by what lies next to it."""
    ranks = Counter(p.stands_for.rank for p in placements)
    aces = ranks[Rank.ACE]
    # the ace is high beside a king with no two; two aces take both ends
    ace_high = Rank.KING in ranks and Rank.TWO not in ranks
    positions = []
    aces_seen = 0
    for p in placements:
        rank = p.stands_for.rank
        assert rank is not None
        if rank is Rank.ACE:
            if aces == 2:
                positions.append(LOW_ACE if aces_seen == 0 else HIGH_ACE)
            else:
                positions.append(HIGH_ACE if ace_high else LOW_ACE)
            aces_seen += 1
        else:
            positions.append(rank.value)
    return positions


def pair_wilds(ordered: Sequence[Placement]) -> tuple[Placement, ...]:
    """The set's cards put in their places by the project's rule, the places being in written order.

    A set is its cards and the cards they stand for; which wild sits in which place is not
    a choice: a card that is the very card a place needs sits there as itself (first
    places first), and the remaining wilds fill the remaining places in order, cards of
    the wild rank by suit (S H D C) before printed jokers.
    """
    loose = Counter(p.card for p in ordered)
    placed: list[Placement | None] = []
    for p in ordered:
        if loose[p.stands_for] > 0:
            loose[p.stands_for] -= 1
            placed.append(Placement(p.stands_for, p.stands_for))
        else:
            placed.append(None)
    rest = iter(sorted(loose.elements(), key=_card_code))
    return tuple(q if q is not None else Placement(next(rest), p.stands_for) for p, q in zip(ordered, placed, strict=True))


def read_run(placements: Sequence[Placement], min_size: int = RUN_MIN, as_declared: bool = False) -> RunShape:
    """The run these cards make, or :class:`MeldError` saying why they make none."""
    text = " ".join(p.text for p in placements)
    if len(placements) < min_size:
        raise MeldError.of(
            "meld.run_size", f"{text}: a run needs at least {min_size} cards here, not {len(placements)}",
            least=min_size, count=len(placements),
        )
    suits = {p.stands_for.suit for p in placements}
    if len(suits) != 1:
        raise MeldError.of("meld.run_suit", f"{text}: a run is all one suit (a monkey is one rank in different suits)")
    suit = next(iter(suits))
    assert suit is not None
    ranks = Counter(p.stands_for.rank for p in placements)
    if ranks[Rank.ACE] > 2:
        raise MeldError.of("meld.run_aces", f"{text}: a run holds the ace at most twice (low and high)")
    ordered = sorted(placements, key=lambda p: (_rank_order(p.stands_for.rank), p.card))
    positions = _run_positions(ordered)
    pairs = sorted(zip(positions, ordered, strict=True), key=lambda pair: pair[0])
    seen = Counter(positions)
    repeated = sorted({card_at(suit, pos).code for pos, n in seen.items() if n > 1})
    if repeated:
        raise MeldError.of("meld.run_repeat", f"{text}: a run holds each rank once; {' '.join(repeated)} is there twice", cards=repeated)
    low, high = pairs[0][0], pairs[-1][0]
    if high - low + 1 != len(pairs):
        if Rank.KING in ranks and Rank.ACE in ranks and Rank.TWO in ranks:
            raise MeldError.of(
                "meld.run_corner", f"{text}: a run does not turn the corner: the ace is low (A-2-3) or high (Q-K-A), never K-A-2"
            )
        missing = [card_at(suit, pos).code for pos in range(low, high + 1) if pos not in seen]
        raise MeldError.of("meld.run_gap", f"{text}: the ranks are not consecutive (missing {' '.join(missing)})", cards=missing)
    placed = [p for _, p in pairs]
    return RunShape(suit, low, high, tuple(placed) if as_declared else pair_wilds(placed))


def _rank_order(rank: Rank | None) -> int:
    return 0 if rank is None else rank.value


def read_monkey(
    placements: Sequence[Placement], min_size: int = MONKEY_MIN, needs_natural: bool = False, as_declared: bool = False
) -> MonkeyShape:
    """The monkey these cards make, or :class:`MeldError` saying why they make none."""
    text = " ".join(p.text for p in placements)
    ranks = {p.stands_for.rank for p in placements}
    if len(ranks) != 1:
        raise MeldError.of("meld.monkey_rank", f"{text}: a monkey is one rank in different suits")
    rank = next(iter(ranks))
    assert rank is not None
    if not min_size <= len(placements) <= MONKEY_MAX:
        if min_size == MONKEY_MAX:
            raise MeldError.of(
                "meld.monkey_four", f"{text}: a monkey here needs all four suits, not {len(placements)} cards", count=len(placements)
            )
        raise MeldError.of(
            "meld.monkey_size", f"{text}: a monkey here needs {min_size} or {MONKEY_MAX} cards, not {len(placements)} cards",
            least=min_size, most=MONKEY_MAX, count=len(placements),
        )
    suits = Counter(p.stands_for.suit for p in placements)
    repeated = sorted(Card(rank, s).code for s, n in suits.items() if n > 1 and s is not None)
    if repeated:
        raise MeldError.of(
            "meld.monkey_suits", f"{text}: a monkey's cards are all different suits; {' '.join(repeated)} is there twice", cards=repeated
        )
    by_suit = sorted(placements, key=lambda p: (p.stands_for.suit.index, p.card))  # type: ignore[union-attr]
    ordered = tuple(by_suit) if as_declared else pair_wilds(by_suit)
    if needs_natural and all(not p.is_natural for p in ordered):
        raise MeldError.of(
            "meld.monkey_natural", f"{text}: at this table a monkey needs at least one natural card of its rank (natural_in_monkey)"
        )
    return MonkeyShape(rank, ordered)


def read_set(
    placements: Sequence[Placement],
    wilds: Wilds,
    min_size: int = RUN_MIN,
    monkey_needs_natural: bool = False,
    as_declared: bool = False,
) -> Shape:
    """The run or monkey these cards make, or :class:`MeldError`: each wild where the player put it
    (``as_declared``), or where the rule puts it (:func:`pair_wilds`)."""
    if not placements:
        raise MeldError.of("meld.empty", "a set needs cards")
    for p in placements:
        if p.stands_for.is_joker:
            raise MeldError.of("meld.wild_for_joker", f"{p.text}: a wild stands for a real card, never for a joker", text=p.text)
    shape: Shape
    if len({p.stands_for.rank for p in placements}) == 1 and len(placements) > 1:
        shape = read_monkey(placements, max(min_size, MONKEY_MIN), monkey_needs_natural, as_declared)
    elif len({p.stands_for.suit for p in placements}) == 1:
        shape = read_run(placements, min_size, as_declared)
    else:
        text = " ".join(p.text for p in placements)
        raise MeldError.of(
            "meld.shape", f"{text}: a set is a run (consecutive ranks in one suit) or a monkey (one rank in different suits)"
        )
    # (checked in the places the rule gives each card, so any way of writing the same set reads the same)
    check_wild_uses(shape.placements, wilds)
    return shape


def canonical_order(placements: Iterable[Placement], as_declared: bool = False) -> tuple[Placement, ...]:
    """How a set is written: a run low to high, a monkey S H D C, each wild where it was declared
    (``as_declared``) or where the rule puts it (:func:`pair_wilds`); what is no set at all, in card order."""
    items = list(placements)
    try:
        if len({p.stands_for.rank for p in items}) == 1 and len(items) > 1:
            return read_monkey(items, 1, as_declared=as_declared).placements
        if len({p.stands_for.suit for p in items}) == 1 and not any(p.stands_for.is_joker for p in items):
            return read_run(items, 1, as_declared).placements
    except MeldError:
        pass
    return tuple(sorted(items, key=lambda p: (p.stands_for, p.card)))


# -- enumeration ---------------------------------------------------------------------


# Enumeration works on card numbers (0-51 by suit then rank, 52 the joker) so that the
# search touches only lists of counts; the placements it yields are made once, here.
JOKER_NUMBER = 52
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in Rank) + (JOKER,)
_NUMBER: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
_PLACED: tuple[tuple[Placement, ...], ...] = tuple(
    tuple(Placement(CARDS[c], CARDS[m]) for m in range(JOKER_NUMBER)) for c in range(len(CARDS))
)
# the card number at each run position of each suit (index 0 unused)
_LINE: tuple[tuple[int, ...], ...] = tuple(
    (-1,) + tuple(_NUMBER[card_at(suit, pos)] for pos in range(LOW_ACE, HIGH_ACE + 1)) for suit in SUITS
)


def card_number(card: Card) -> int:
    return _NUMBER[card]


def _counts(available: Counter[Card]) -> list[int]:
    pool = [0] * len(CARDS)
    for card, n in available.items():
        if n > 0:
            pool[_NUMBER[card]] += n
    return pool


def _wild_numbers(pool: Sequence[int], wilds: Wilds) -> list[int]:
    offset = wilds.rank.value - 1
    found = [suit * 13 + offset for suit in range(4) if pool[suit * 13 + offset] > 0]
    if pool[JOKER_NUMBER] > 0:
        found.append(JOKER_NUMBER)
    return found


class Pool:
    """A hand's playable cards counted by card number, with its wilds: read once, searched often."""

    __slots__ = ("counts", "wilds", "total")

    def __init__(self, available: Counter[Card], wilds: Wilds) -> None:
        self.counts = _counts(available)
        self.wilds = _wild_numbers(self.counts, wilds)
        self.total = sum(self.counts[w] for w in self.wilds)

    @classmethod
    def of(cls, available: Counter[Card] | Pool, wilds: Wilds) -> Pool:
        return available if isinstance(available, Pool) else cls(available, wilds)


def wild_kinds(available: Counter[Card], wilds: Wilds) -> list[Card]:
    """The different wild cards in a hand (each card of the wild rank, then the joker)."""
    return [CARDS[i] for i in Pool.of(available, wilds).wilds]


def _fill(
    needed: Sequence[int],
    pool: list[int],
    kinds: Sequence[int],
    min_naturals: int = 0,
) -> Iterator[tuple[Placement, ...]]:
    """Every distinct way to fill the needed cards from the hand, each set once in :func:`pair_wilds` form.

    First choose the places filled by the card itself; the rest take wilds, chosen as a
    multiset (the wilds' places follow from the rule, so their order is no choice).  A
    card of the wild rank never takes a wild's place where it is itself needed: there it
    would sit as itself.
    """
    size = len(needed)
    natural = [False] * size
    wild_supply = sum(pool[k] for k in kinds)

    def wilds_for(slots: int, usable: list[int], start: int) -> Iterator[list[int]]:
        if slots == 0:
            yield []
            return
        for index in range(start, len(usable)):
            kind = usable[index]
            if pool[kind] > 0:
                pool[kind] -= 1
                for rest in wilds_for(slots - 1, usable, index):
                    yield [kind, *rest]
                pool[kind] += 1

    def step(i: int, naturals: int) -> Iterator[tuple[Placement, ...]]:
        if i - naturals > wild_supply:
            return  # more places left to wilds than the hand has wilds
        if i == size:
            if naturals < min_naturals:
                return
            banned = {needed[j] for j in range(size) if not natural[j]}
            usable = [k for k in kinds if k not in banned]
            for chosen in wilds_for(size - naturals, usable, 0):
                rest = iter(chosen)
                yield tuple(
                    _PLACED[needed[j]][needed[j]] if natural[j] else _PLACED[next(rest)][needed[j]] for j in range(size)
                )
            return
        want = needed[i]
        if pool[want] > 0:
            pool[want] -= 1
            natural[i] = True
            yield from step(i + 1, naturals + 1)
            natural[i] = False
            pool[want] += 1
        yield from step(i + 1, naturals)

    yield from step(0, 0)


def enumerate_runs(
    available: Counter[Card] | Pool,
    wilds: Wilds,
    suits: Iterable[Suit],
    min_size: int,
    max_size: int,
) -> Iterator[tuple[Placement, ...]]:
    """Every distinct run the hand can lay in the given suits, ``min_size`` to ``max_size`` cards."""
    counted = Pool.of(available, wilds)
    pool, kinds, wild_total = list(counted.counts), counted.wilds, counted.total
    max_size = min(max_size, HIGH_ACE)
    for suit in suits:
        line = _LINE[suit.index]
        for low in range(LOW_ACE, HIGH_ACE + 1):
            gaps = 0
            for high in range(low, min(HIGH_ACE, low + max_size - 1) + 1):
                if pool[line[high]] == 0:
                    gaps += 1
                if gaps > wild_total:
                    break  # the stretch has more holes than the hand has wilds
                if high - low + 1 < min_size:
                    continue
                if (low, high) in ((2, HIGH_ACE), (LOW_ACE, HIGH_ACE)):
                    # two to ace is written ace to king (the ace taken low); ace to ace,
                    # fourteen cards, is only ever made by extension
                    continue
                yield from _fill(line[low : high + 1], pool, kinds)


def enumerate_monkeys(
    available: Counter[Card] | Pool,
    wilds: Wilds,
    ranks: Iterable[Rank],
    min_size: int,
    max_size: int,
    needs_natural: bool = False,
) -> Iterator[tuple[Placement, ...]]:
    """Every distinct monkey the hand can lay in the given ranks (all wild too, unless ``needs_natural``)."""
    counted = Pool.of(available, wilds)
    pool, kinds, wild_total = list(counted.counts), counted.wilds, counted.total
    low = max(min_size, MONKEY_MIN)
    high = min(max_size, MONKEY_MAX)
    for rank in ranks:
        numbers = [suit * 13 + rank.value - 1 for suit in range(4)]
        if needs_natural and not any(pool[n] for n in numbers):
            continue  # the option: a monkey holds at least one natural card of its rank
        for size in range(low, high + 1):
            for chosen in combinations(numbers, size):
                missing = sum(1 for n in chosen if pool[n] == 0)
                if missing > wild_total or (needs_natural and missing == size):
                    continue
                yield from _fill(chosen, pool, kinds, min_naturals=1 if needs_natural else 0)


def declared_variants(placements: Sequence[Placement], wilds: Wilds) -> set[tuple[Placement, ...]]:
    """Every way to place the same cards in the same places when the player places each wild:
    the wild cards of the set (wild-rank cards sitting as themselves included) in every order
    over their places, each a distinct set to a later swap."""
    spots = [i for i, p in enumerate(placements) if wilds.is_wild(p.card)]
    if len(spots) < 2:
        return {tuple(placements)}
    cards = [placements[i].card for i in spots]
    variants = set()
    for order in set(permutations(cards)):
        placed = list(placements)
        for i, card in zip(spots, order, strict=True):
            placed[i] = Placement(card, placements[i].stands_for)
        variants.add(tuple(placed))
    return variants


def fillers(want: Card, available: Counter[Card] | Pool, wilds: Wilds) -> list[Placement]:
    """The ways one card of the hand can take the place of ``want``: itself, or any wild."""
    counted = Pool.of(available, wilds)
    target = _NUMBER[want]
    options = []
    if counted.counts[target] > 0:
        options.append(_PLACED[target][target])
    options.extend(_PLACED[wild][target] for wild in counted.wilds if wild != target)
    return options


__all__ = [
    "HIGH_ACE",
    "LOW_ACE",
    "MONKEY_MAX",
    "MONKEY_MIN",
    "MeldError",
    "MonkeyShape",
    "Placement",
    "Pool",
    "RUN_MIN",
    "RunShape",
    "Shape",
    "canonical_order",
    "declared_variants",
    "pair_wilds",
    "card_at",
    "card_number",
    "check_wild_uses",
    "enumerate_monkeys",
    "enumerate_runs",
    "fillers",
    "rank_at",
    "read_monkey",
    "read_run",
    "read_set",
    "wild_kinds",
]
