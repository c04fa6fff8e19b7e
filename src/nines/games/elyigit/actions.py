"""Elyigit's Nines actions and their text forms.

* the auction: ``bid 6`` (a number of tricks) or ``pass``;
* the declarer names trumps: ``trump H`` (``trump NT`` where no trumps are allowed);
* the play: ``play 9H`` (:class:`nines.games.tricks.Play`).

Text forms round-trip through :func:`parse_elyigit_action`, which also accepts the
short forms a person types at a table: a bare number is a bid, a bare suit letter
names trumps, a bare card is played.

Actions of the auction order among themselves (bids low to high, then ``pass``) so
that a list of legal calls sorts the way it reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import total_ordering
from typing import Any

from ...cards import NotationError, Suit, parse_card
from ..contract import Action, IllegalAction
from ..tricks import Play, parse_play, parse_trump, trump_code

__all__ = ["Bid", "Pass", "NameTrump", "Play", "parse_elyigit_action"]


def _call_key(call: object) -> tuple[int, int]:
    if isinstance(call, Bid):
        return (0, call.tricks)
    if isinstance(call, Pass):
        return (1, 0)
    raise TypeError


@total_ordering
@dataclass(frozen=True, slots=True)
class Bid:
    """Name a number of tricks, higher than the standing bid: ``bid 6``."""

    tricks: int
    kind: str = field(default="bid", init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return f"bid {self.tricks}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "bid", "tricks": self.tricks}

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, (Bid, Pass)):
            return NotImplemented
        return _call_key(self) < _call_key(other)


@total_ordering
@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to bid this time round (a pass does not put a player out of the auction)."""

    kind: str = field(default="pass", init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return "pass"

    def to_record(self) -> dict[str, Any]:
        return {"action": "pass"}

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, (Bid, Pass)):
            return NotImplemented
        return _call_key(self) < _call_key(other)


@total_ordering
@dataclass(frozen=True, slots=True)
class NameTrump:
    """The declarer names the trump suit: ``trump H``; ``suit`` ``None`` is no trumps (``trump NT``)."""

    suit: Suit | None
    kind: str = field(default="trump", init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return f"trump {trump_code(self.suit)}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "trump", "suit": trump_code(self.suit)}

    def _key(self) -> int:
        return 4 if self.suit is None else self.suit.index

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, NameTrump):
            return NotImplemented
        return self._key() < other._key()


_MOVES = "'bid' and a number of tricks (e.g. 'bid 6'), 'pass', 'trump' and a suit (e.g. 'trump H') or 'play' and a card (e.g. 'play 9H')"


def parse_elyigit_action(text: str) -> Action:
    """Read ``bid 6``, ``pass``, ``trump H`` / ``trump NT`` or ``play 9H`` (and the bare forms ``6``, ``H``, ``9H``)."""
    words = str(text).split()
    if not words:
        raise IllegalAction.of("syntax.elyigit", f"an empty move: write {_MOVES}", text="")
    verb = words[0].lower()
    rest = words[1:]
    if verb == "bid":
        if len(rest) != 1 or not rest[0].isdigit():
            raise IllegalAction.of("syntax.bid", "write a bid as 'bid' and a number of tricks, e.g. 'bid 6'")
        return Bid(int(rest[0]))
    if verb == "pass" and not rest:
        return Pass()
    if verb == "trump":
        if len(rest) != 1:
            raise IllegalAction.of("syntax.trump", "write 'trump' and a suit letter, e.g. 'trump H' (or 'trump NT' where allowed)")
        try:
            return NameTrump(parse_trump(rest[0]))
        except NotationError as error:
            raise IllegalAction.of("syntax.trump_suit", f"{error}; or NT for no trumps where allowed", text=rest[0]) from None
    if verb == "play":
        return parse_play(rest)
    if len(words) == 1:
        word = words[0]
        if word.isdigit():
            return Bid(int(word))
        try:
            return Play(parse_card(word))
        except NotationError:
            pass
        try:
            return NameTrump(parse_trump(word))
        except NotationError:
            pass
    raise IllegalAction.of("syntax.elyigit", f"{text!r} is not a move of Elyigit's Nines: write {_MOVES}", text=str(text))
