"""What the server knows about each game beyond the contract: how a finished deal counts in a person's statistics.

Each game's front is a small function from a deal's record to one outcome per seat;
everything else the server does is generic over the game registry and the views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...games.contract import GameState


@dataclass(frozen=True)
class DealOutcome:
    """One seat's result in one finished deal."""

    won: bool
    tricks: int | None = None
    target: int | None = None  # quota or contract the tricks are measured against
    exchanged: bool | None = None
    declared: bool | None = None
    points: int | None = None  # score change in the deal


OutcomeFn = Callable[[GameState, Mapping[str, Any], Mapping[str, Any], str], DealOutcome]


def _acted(deal: Mapping[str, Any], seat: str, kind: str) -> bool:
    return any(a.get("seat") == seat and a.get("action") == kind for a in deal.get("actions", []))


def _side_of(record: Mapping[str, Any], seat: str) -> str:
    """The side a seat scores for: itself, or the partnership whose name contains it (``NS``)."""
    sides = record.get("sides") or record.get("seats") or []
    if seat in sides:
        return seat
    return next((side for side in sides if seat in side), seat)


def neuf_outcome(state: GameState, record: Mapping[str, Any], deal: Mapping[str, Any], seat: str) -> DealOutcome:
    # Quota scoring: tricks over the quota take points off, which is what a player wants.
    result = deal.get("result") or {}
    side = _side_of(record, seat)
    change = (result.get("score_change") or {}).get(side)
    tricks = (result.get("side_tricks") or result.get("tricks") or {}).get(side)
    quota = getattr(state.options, "side_quota", None)
    has_exchange = bool(getattr(state.options, "has_exchange", False))
    return DealOutcome(
        won=change is not None and change < 0,
        tricks=tricks,
        target=quota,
        exchanged=_acted(deal, seat, "exchange") if has_exchange else None,
        points=change,
    )


def elyigit_outcome(state: GameState, record: Mapping[str, Any], deal: Mapping[str, Any], seat: str) -> DealOutcome:
    # The declaring side needs its contract; the defenders need the tricks that make it unreachable.
    result = deal.get("result") or {}
    side = _side_of(record, seat)
    contract = result.get("contract") or deal.get("contract")
    change = (result.get("score_change") or {}).get(side)
    if not isinstance(contract, Mapping):  # thrown in: nobody bid
        return DealOutcome(won=False, declared=False, points=change)
    declarer = str(contract.get("declarer"))
    bid = int(contract.get("bid", 0))
    declaring = side == _side_of(record, declarer)
    tricks = (result.get("tricks") or {}).get(side)
    made = bool(result.get("made"))
    return DealOutcome(
        won=made if declaring else not made,
        tricks=tricks,
        target=bid if declaring else 10 - bid,
        declared=declarer == seat,
        points=change,
    )


def rummy_outcome(state: GameState, record: Mapping[str, Any], deal: Mapping[str, Any], seat: str) -> DealOutcome:
    # The hand closes when someone discards their last card: that player scores 0.
    result = deal.get("result") or {}
    return DealOutcome(won=result.get("went_out") == seat, points=(result.get("points") or {}).get(seat))


def generic_outcome(state: GameState, record: Mapping[str, Any], deal: Mapping[str, Any], seat: str) -> DealOutcome:
    result = deal.get("result") or {}
    change = (result.get("score_change") or {}).get(_side_of(record, seat))
    return DealOutcome(won=False, points=change)


OUTCOMES: dict[str, OutcomeFn] = {"neuf": neuf_outcome, "elyigit": elyigit_outcome, "rummy": rummy_outcome}


def deal_outcome(state: GameState, record: Mapping[str, Any], deal: Mapping[str, Any], seat: str) -> DealOutcome:
    return OUTCOMES.get(state.game_id, generic_outcome)(state, record, deal, seat)


def finished_deals(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The deals of a record that have a result (every deal but one in progress)."""
    return [deal for deal in record.get("deals", []) if deal.get("result") is not None]


def match_won(record: Mapping[str, Any], seat: str) -> bool:
    winners = record.get("winners") or []
    return seat in winners or _side_of(record, seat) in winners
