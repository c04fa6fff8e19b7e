"""What one seat may know in Elyigit's Nines (bots and clients see only this).

A seat sees its own hand, every call of the auction, the contract, every card played,
and -- from the moment trumps are named, never before -- the dummy's hand, which lies
face up for everybody.  When the dummy is to play, the declarer's view carries the
dummy's legal plays (``legal``) and ``to_act`` names the dummy, while ``acting_seat``
names the declarer who decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ..contract import plain_fields
from ..tricks import TrickView
from .play_rules import PlayRules


@dataclass(frozen=True)
class ElyigitView:
    seat: str | None
    """Whose view this is (``None``: a spectator)."""
    seats: tuple[str, ...]
    sides: tuple[str, ...]
    deal_number: int
    dealer: str
    phase: str
    """``auction``, ``trump`` (the declarer is naming trumps), ``play`` or ``over`` (the match)."""
    hand: tuple[Card, ...]
    """The seat's own cards, strongest first in each suit (nine high, ace low)."""
    hand_sizes: dict[str, int]
    auction: tuple[tuple[str, str], ...]
    """Every call so far: (seat, ``bid 6`` or ``pass``)."""
    min_bid: int
    high_bid: int | None
    high_bidder: str | None
    contract: int | None
    """The declarer's bid, once the auction is over."""
    declarer: str | None
    dummy: str | None
    trump: str | None
    """The trump suit letter (``NT`` for no trumps) once named, ``None`` before."""
    dummy_hand: tuple[Card, ...] | None
    """The dummy's cards, face up from the naming of trumps; ``None`` before."""
    trick: TrickView | None
    tricks_played: tuple[TrickView, ...]
    last_trick: TrickView | None
    tricks_won: dict[str, int]
    side_tricks: dict[str, int]
    targets: dict[str, int] | None
    """Tricks each side needs: the contract for the declarers, ``10 - bid`` for the defenders."""
    min_tricks: int
    play_out: bool
    play_rules: PlayRules
    """The clauses of the compulsory play rule in force at this table (public)."""
    no_trumps: bool
    scores: dict[str, int]
    target: int
    score_sheet: tuple[dict[str, Any], ...]
    to_act: str | None
    """The seat whose call or card is due (the dummy when a dummy card is due)."""
    acting_seat: str | None
    """The seat that decides now: the declarer when the dummy is to play."""
    legal: tuple[str, ...]
    """Text forms of the legal actions when this seat decides now (the dummy's cards when playing for it)."""
    winners: tuple[str, ...]
    previous_deal: dict[str, Any] | None
    """The last finished deal: contract, tricks as played, result (no card that was not played)."""

    game: str = "elyigit"

    @property
    def playing_for(self) -> str | None:
        """The seat whose card ``legal`` plays: this seat, or the dummy it controls."""
        return self.to_act if self.legal else None

    def to_dict(self, reuse: tuple[Any, dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain JSON-able data; ``reuse``: an earlier view and its data, whose unchanged parts are kept."""
        return plain_fields(self, reuse)
