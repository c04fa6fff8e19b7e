"""What one seat may know in Le Neuf (bots and clients see only this)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ..contract import plain_fields
from ..tricks import TrickView


@dataclass(frozen=True)
class RememberedHand:
    """The hand a player left in the centre: they know it, and see who took it."""

    cards: tuple[Card, ...]
    now_with: str  # a seat, "centre" during the exchange, or "set-aside"
    unplayed: tuple[Card, ...]


@dataclass(frozen=True)
class NeufView:
    seat: str | None
    seats: tuple[str, ...]
    form: str
    deal_number: int
    dealer: str
    trump: str
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: dict[str, int]
    exchange_order: tuple[str, ...]
    exchanges: dict[str, str]
    centre_from: str | None
    remembered: RememberedHand | None
    trick: TrickView | None
    tricks_played: tuple[TrickView, ...]
    last_trick: TrickView | None
    tricks_won: dict[str, int]
    quota: int
    sides: tuple[str, ...]
    scores: dict[str, int]
    score_sheet: tuple[dict[str, Any], ...]
    to_act: str | None
    legal: tuple[str, ...]
    winners: tuple[str, ...]
    previous_deal: dict[str, Any] | None

    game: str = "neuf"

    def to_dict(self, reuse: tuple[Any, dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain JSON-able data; ``reuse``: an earlier view and its data, whose unchanged parts are kept."""
        return plain_fields(self, reuse)
