"""The cards played: each scored from the position just before it, every hand known.

The solver gives every legal card of the seat to play the tricks it leads to (for the
seat's side, or the seat alone in the paranoid forms); the card played is then compared
with the best of them.
"""

from __future__ import annotations

from ..solver import Position
from .model import PlayReview
from .rebuild import RebuiltDeal
from .solving import Budget, Solvers, position

__all__ = ["review_cards"]


def _side(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def _next_value(deal: RebuiltDeal, index: int, table: Position, got: int) -> int | None:
    """In partnerships, the value of the next position for the side of the seat to play there,
    known from the card just scored: what that card's side takes from here, less the trick it
    completes if that side won it (the next position counts only the tricks still to play)."""
    if deal.form != "partners" or index + 1 >= len(deal.plays):
        return None
    play, following = deal.plays[index], deal.plays[index + 1]
    ns = got if _side(play.seat) == "NS" else table.tricks_left - got
    left = table.tricks_left
    if len(play.played) + 1 == len(table.seats):  # the card completes the trick; its winner leads the next
        left -= 1
        if _side(following.leader) == "NS":
            ns -= 1
    return ns if _side(following.seat) == "NS" else left - ns


def review_cards(deal: RebuiltDeal, solvers: Solvers, budget: Budget) -> tuple[PlayReview, ...]:
    """Every card of the deal, in the order played."""
    reviews = []
    known: int | None = None
    for index, play in enumerate(deal.plays):
        if deal.unscorable is not None:
            reviews.append(PlayReview(play.trick, play.seat, play.by, play.card, None, deal.unscorable))
            continue
        table = position(deal.game, deal.form, play.hands, deal.trump, play.leader, play.played)
        scores = solvers.scores(table, budget, known)
        known = None if scores is None else _next_value(deal, index, table, scores[play.card])
        why = None if scores is not None else f"not scored: the deal's node budget ({budget.total:,} nodes) was spent"
        reviews.append(PlayReview(play.trick, play.seat, play.by, play.card, scores, why))
    return tuple(reviews)
