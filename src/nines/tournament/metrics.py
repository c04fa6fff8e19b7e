"""What a tournament measures in each game: the result of a deal for a seat, and who won.

* **Le Neuf**: the *score change* of the seat (or its partnership) in the deal: the
  quota minus the tricks taken.  Scores run down to zero, so **lower is better**: -2
  means two tricks over the quota, +1 one trick short.
* **Elyigit's Nines**: the *points the seat's side scored* in the deal (the bid and
  overtricks when the declarers make it, the bid and undertricks for the defenders
  when they do not, zero in a thrown-in deal).  **Higher is better.**
* **Nines rummy**: the *penalty points* the seat took in the hand (zero for the
  player who went out).  **Lower is better.**

A *match* is always the game's own match played to its end under its options: Le
Neuf until someone reaches zero, Elyigit's Nines until a side reaches the target,
rummy for the session's number of hands.  Joint winners share the win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..games.contract import GameState


@dataclass(frozen=True)
class GameMetric:
    game: str
    name: str
    """What one deal's number is, in words."""
    lower_is_better: bool
    deal_word: str = "deal"
    expected_deals_per_match: float = 10.0
    """A first guess, used only to decide how many matches to start ahead of results."""

    def deal_values(self, state: GameState) -> list[dict[str, float]]:
        """For each finished deal of the match: every seat's result."""
        rows: list[dict[str, float]] = []
        seats = state.seats
        for deal in state.record()["deals"]:
            result = deal.get("result")
            if not result:
                continue
            rows.append({seat: float(self._value(seat, result, state)) for seat in seats})
        return rows

    def _value(self, seat: str, result: Mapping[str, Any], state: GameState) -> float:
        change = result.get("score_change") or result["points"]
        if seat in change:
            return float(change[seat])
        side = _side_of(seat, change)
        return change.get(side, 0) if side is not None else 0

    def winner_seats(self, state: GameState) -> list[list[str]]:
        """Each winner (a seat or a side) as the seats it stands for."""
        out = []
        for winner in state.winners:
            if winner in state.seats:
                out.append([winner])
            else:
                out.append([seat for seat in state.seats if seat in winner])
        return out

    def better(self, a: float, b: float) -> float:
        """How much better ``a`` is than ``b`` (positive: ``a`` is better)."""
        return b - a if self.lower_is_better else a - b


def _side_of(seat: str, keys: Mapping[str, Any]) -> str | None:
    for key in keys:
        if seat in key and len(key) > 1:
            return key
    return None


METRICS: dict[str, GameMetric] = {
    "neuf": GameMetric("neuf", "score change per deal (quota minus tricks)", lower_is_better=True,
                       expected_deals_per_match=15.0),
    "elyigit": GameMetric("elyigit", "points scored per deal by the seat's side", lower_is_better=False,
                          expected_deals_per_match=12.0),
    "rummy": GameMetric("rummy", "penalty points per hand", lower_is_better=True, deal_word="hand",
                        expected_deals_per_match=2.0),
}


def metric_for(game_id: str) -> GameMetric:
    return METRICS[game_id]
