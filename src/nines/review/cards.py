"""The cards played: each scored from the position just before it, every hand known.

The solver gives every legal card of the seat to play the tricks it leads to (for the
seat's side, or the seat alone in the paranoid forms); the card played is then compared
with the best of them.
"""

from __future__ import annotations

from .model import PlayReview
from .rebuild import RebuiltDeal
from .solving import Budget, Solvers, position

__all__ = ["review_cards"]


def review_cards(deal: RebuiltDeal, solvers: Solvers, budget: Budget) -> tuple[PlayReview, ...]:
    """Every card of the deal, in the order played."""
    reviews = []
    for play in deal.plays:
        if deal.unscorable is not None:
            reviews.append(PlayReview(play.trick, play.seat, play.by, play.card, None, deal.unscorable))
            continue
        table = position(deal.game, deal.form, play.hands, deal.trump, play.leader, play.played)
        scores = solvers.scores(table, budget)
        why = None if scores is not None else f"not scored: the deal's node budget ({budget.total:,} nodes) was spent"
        reviews.append(PlayReview(play.trick, play.seat, play.by, play.card, scores, why))
    return tuple(reviews)
