"""What one seat may know in Nines rummy (bots and clients see only this).

A seat sees its own hand, everything face up (the indicator, the table sets with
what each wild stands for, the whole discard pile, the wilds each player is holding
after a swap), how many cards are in the stock and in each other hand, and the public
history of the hand: a card drawn from the stock is shown only to the player who drew
it.  Never the stock's order or another player's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ..contract import plain_fields


@dataclass(frozen=True)
class PlacedCard:
    """A card in a table set and the card it stands for (itself, if natural)."""

    card: Card
    stands_for: Card
    wild: bool

    @property
    def text(self) -> str:
        return self.card.code if not self.wild else f"{self.card.code}={self.stands_for.code}"


@dataclass(frozen=True)
class Move:
    """One move of the hand as everyone saw it."""

    seat: str
    action: str
    """The text form: ``draw stock``, ``lay 7H 8H JK=9H TH``, ``swap H 9H``, ``discard 4C``."""
    drew: Card | None = None
    """The card taken from the discard pile (a card drawn from the stock is not shown)."""
    set: str | None = None
    """The set laid, extended or swapped in."""
    took: Card | None = None
    """The wild a swap took into the hand."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": self.action,
            "drew": None if self.drew is None else self.drew.code,
            "set": self.set,
            "took": None if self.took is None else self.took.code,
        }


@dataclass(frozen=True)
class TableSetView:
    """A run or monkey on the table."""

    id: str
    """``H`` for the heart run, ``9`` for the monkey of nines."""
    kind: str
    owner: str
    cards: tuple[PlacedCard, ...]
    text: str
    """The cards as written in moves: ``7H 8H JK=9H TH``."""
    wants: tuple[Card, ...]
    """The cards (by what they would stand for) that would extend it now."""


@dataclass(frozen=True)
class RummyView:
    seat: str | None
    seats: tuple[str, ...]
    decks: int
    deal_number: int
    """The hand being played, from 1."""
    hands_in_session: int | None
    """The hands the session has; ``None`` for an open session (the table ends it)."""
    session_ending: bool
    """An open session whose table has asked to end it: this hand is the last."""
    starter: str
    turn: int
    """Turns completed this hand (the starter's first turn is turn 0)."""
    first_round: bool
    """True until play comes back to the starter: draw and discard only."""
    phase: str
    """``draw`` (the player to act must draw), ``play`` (lay, extend, swap, then discard) or ``over``."""
    to_act: str | None
    indicator: Card
    wild_rank: str
    hand: tuple[Card, ...]
    drawn: Card | None
    """The card this seat drew this turn (it may throw it back)."""
    drawn_from: str | None
    hand_sizes: dict[str, int]
    held: dict[str, tuple[Card, ...]]
    """Wilds each player took in a swap this turn: held until the start of their next turn."""
    opened: tuple[str, ...]
    table: tuple[TableSetView, ...]
    discard_pile: tuple[Card, ...]
    """Bottom first; the last card is the top discard."""
    top_discard: Card | None
    stock_size: int
    reshuffles: int
    moves: tuple[Move, ...]
    """This hand's moves as everyone saw them."""
    scores: dict[str, int]
    score_sheet: tuple[dict[str, Any], ...]
    legal: tuple[str, ...]
    winners: tuple[str, ...]
    previous_hand: dict[str, Any] | None

    game: str = "rummy"

    def to_dict(self, reuse: tuple[Any, dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain JSON-able data (cards as codes); the moves, which grow all hand long, the quick way;
        ``reuse``: an earlier view and its data, whose unchanged parts are kept."""
        return plain_fields(self, reuse, _CONVERT)


_CONVERT = {"moves": lambda moves: [move.to_dict() for move in moves]}
