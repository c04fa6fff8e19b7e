"""Nines rummy actions and their text forms.

========================  =======================================================
``draw stock``            take the top card of the stock
``draw discard``          take the top card of the discard pile
``lay 7H 8H JK=9H TH``    lay a new run or monkey; a wild says what it stands for
``extend H JK=6H``        add one card to a set on the table (run ``H``, monkey ``9``)
``swap H 9H``             put the natural 9H in place of the wild standing for it
``discard 4C``            discard a card, ending the turn
``end session``           (an open session) the session ends after this hand
========================  =======================================================

``end session`` is not a move of the game: any player at the table may ask for it at any
time, so it is never among the legal moves a player chooses from (see the state's check).

Sets are named by suit (a run) or rank (a monkey): there is only one of each.  Every
action's text form round-trips through :func:`parse_rummy_action`; actions of every
kind compare with each other, so a list of them sorts (draws, lays, extensions,
swaps, discards).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import total_ordering
from typing import Any, ClassVar

from ...cards import Card, NotationError, Rank, Suit, parse_card
from ..contract import IllegalAction
from .melds import Placement, canonical_order

SOURCES = ("stock", "discard")
KIND_ORDER = {"draw": 0, "lay": 1, "extend": 2, "swap": 3, "discard": 4, "end": 5}

MOVES = (
    "'draw stock', 'draw discard', 'lay 7H 8H JK=9H TH', 'extend H JK=6H', 'swap H 9H' or 'discard 4C'"
)


@total_ordering
class _Ordered:
    """Rummy actions of every kind compare: by kind in turn order, then by their text."""

    __slots__ = ()
    kind: ClassVar[str]

    def _key(self) -> tuple[Any, ...]:
        return (str(self),)

    def _full_key(self) -> tuple[Any, ...]:
        return (KIND_ORDER[self.kind], self._key())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._full_key() < other._full_key()


@dataclass(frozen=True, slots=True, eq=True)
class Draw(_Ordered):
    """Draw exactly one card, from the stock or the top of the discard pile."""

    source: str
    kind: ClassVar[str] = "draw"

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise IllegalAction.of(
                "syntax.draw", f"draw from the stock or the discard pile ('draw stock' or 'draw discard'), not {self.source!r}"
            )

    def _key(self) -> tuple[Any, ...]:
        return (SOURCES.index(self.source),)

    def __str__(self) -> str:
        return f"draw {self.source}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "draw", "source": self.source}


@dataclass(frozen=True, slots=True, eq=True)
class Lay(_Ordered):
    """Lay a new run or monkey from the hand (the first one a player lays is their opening)."""

    placements: tuple[Placement, ...]
    kind: ClassVar[str] = "lay"

    def __post_init__(self) -> None:
        # written in the set's order, each wild where the player declared it
        object.__setattr__(self, "placements", canonical_order(self.placements, as_declared=True))

    @classmethod
    def canonical(cls, placements: tuple[Placement, ...]) -> Lay:
        """A lay from placements already in the order they are written (as enumerated)."""
        lay = object.__new__(cls)
        object.__setattr__(lay, "placements", placements)
        return lay

    @classmethod
    def of(cls, texts: str | Sequence[str]) -> Lay:
        words = texts.split() if isinstance(texts, str) else list(texts)
        return cls(tuple(Placement.parse(w) for w in words))

    @property
    def cards(self) -> list[Card]:
        return [p.card for p in self.placements]

    def _key(self) -> tuple[Any, ...]:
        return (-len(self.placements), str(self))

    def __str__(self) -> str:
        return "lay " + " ".join(p.text for p in self.placements)

    def to_record(self) -> dict[str, Any]:
        return {"action": "lay", "cards": [p.text for p in self.placements]}


@dataclass(frozen=True, slots=True, eq=True)
class Extend(_Ordered):
    """Add one card to a set on the table: either end of a run, or a monkey's missing suit."""

    set_id: str
    placement: Placement
    kind: ClassVar[str] = "extend"

    def __post_init__(self) -> None:
        object.__setattr__(self, "set_id", parse_set_id(self.set_id))

    def __str__(self) -> str:
        return f"extend {self.set_id} {self.placement.text}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "extend", "set": self.set_id, "card": self.placement.text}


@dataclass(frozen=True, slots=True, eq=True)
class Swap(_Ordered):
    """Replace the wild standing for ``card`` in a table set with ``card`` itself, taking the wild."""

    set_id: str
    card: Card
    kind: ClassVar[str] = "swap"

    def __post_init__(self) -> None:
        object.__setattr__(self, "set_id", parse_set_id(self.set_id))
        if self.card.is_joker:
            raise IllegalAction.of("syntax.swap_joker", "a swap puts a natural card in place of the wild standing for it, e.g. 'swap H 9H'")

    def __str__(self) -> str:
        return f"swap {self.set_id} {self.card.code}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "swap", "set": self.set_id, "card": self.card.code}


@dataclass(frozen=True, slots=True, eq=True)
class Discard(_Ordered):
    """Discard one card face up on the discard pile: the end of every turn."""

    card: Card
    kind: ClassVar[str] = "discard"

    def _key(self) -> tuple[Any, ...]:
        card = self.card
        if card.is_joker:
            return (9, 0)
        return (card.suit.index, card.rank.value)  # type: ignore[union-attr]

    def __str__(self) -> str:
        return f"discard {self.card.code}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "discard", "card": self.card.code}


@dataclass(frozen=True, slots=True, eq=True)
class EndSession(_Ordered):
    """Seed 002: "when the group ends the session": in an open session, the table ends it after this hand."""

    kind: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end session"

    def to_record(self) -> dict[str, Any]:
        return {"action": "end-session"}


RummyAction = Draw | Lay | Extend | Swap | Discard | EndSession


def sort_actions(actions: Iterable[RummyAction]) -> list[RummyAction]:
    """Actions in their natural order, without repeats (faster than comparing pairwise)."""
    return sorted(set(actions), key=lambda a: a._full_key())


def parse_set_id(text: str) -> str:
    """A set's name: a suit letter for a run (``H``), a rank for a monkey (``9``, ``T`` or ``10``)."""
    raw = str(text).strip()
    try:
        return Suit.parse(raw).value
    except NotationError:
        pass
    try:
        return Rank.parse(raw).char
    except NotationError:
        raise IllegalAction.of(
            "syntax.set_name",
            f"{raw!r} is not a set: a run is named by its suit (S, H, D, C), a monkey by its rank (A, 2-9, T, J, Q, K)",
            text=raw,
        ) from None


def _card(word: str) -> Card:
    try:
        return parse_card(word)
    except NotationError as error:
        raise IllegalAction.of("syntax.card", str(error), text=word) from None


def parse_rummy_action(text: str) -> RummyAction:
    """Read an action's text form (see the module's table)."""
    words = str(text).split()
    if not words:
        raise IllegalAction.of("syntax.rummy", f"an empty move: write {MOVES}", text="")
    verb, rest = words[0].lower(), words[1:]
    if verb == "draw":
        if len(rest) == 1 and rest[0].lower() in SOURCES:
            return Draw(rest[0].lower())
        raise IllegalAction.of("syntax.draw", "write a draw as 'draw stock' or 'draw discard'")
    if verb == "lay":
        if not rest:
            raise IllegalAction.of("syntax.lay", "write a lay as 'lay' and its cards, a wild with what it stands for: 'lay 7H 8H JK=9H TH'")
        return Lay.of(rest)
    if verb in ("extend", "fill"):
        if len(rest) != 2:
            raise IllegalAction.of(
                "syntax.extend", "write an extension as 'extend', the set and one card: 'extend H 6H' or 'extend 9 JK=9S'"
            )
        return Extend(rest[0], Placement.parse(rest[1]))
    if verb == "swap":
        if len(rest) != 2:
            raise IllegalAction.of("syntax.swap", "write a swap as 'swap', the set and the natural card: 'swap H 9H'")
        return Swap(rest[0], _card(rest[1]))
    if verb == "discard":
        if len(rest) != 1:
            raise IllegalAction.of("syntax.discard", "write a discard as 'discard' and one card: 'discard 4C'")
        return Discard(_card(rest[0]))
    if verb in ("end", "end-session") and [w.lower() for w in rest] in ([], ["session"]):
        return EndSession()
    raise IllegalAction.of("syntax.rummy", f"{text!r} is not a Nines rummy move: write {MOVES}", text=str(text))


def action_from_record(entry: Mapping[str, Any]) -> RummyAction:
    """Read an action from its record entry (extra facts such as the card drawn are ignored)."""
    kind = str(entry.get("action", ""))
    if kind == "draw":
        return Draw(str(entry["source"]))
    if kind == "lay":
        return Lay.of([str(c) for c in entry["cards"]])
    if kind == "extend":
        return Extend(str(entry["set"]), Placement.parse(str(entry["card"])))
    if kind == "swap":
        return Swap(str(entry["set"]), _card(str(entry["card"])))
    if kind == "discard":
        return Discard(_card(str(entry["card"])))
    if kind == "end-session":
        return EndSession()
    raise IllegalAction.of(
        "record.action", f"{kind!r} is not a Nines rummy action (draw, lay, extend, swap, discard, end-session)", text=kind
    )
