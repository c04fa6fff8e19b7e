"""Le Neuf's exchange: the seat's value with the hand it kept against the hand it refused.

Each decision is judged at the first lead, every hand known to the review (also the one
the seat could not see): the seat's paranoid value -- the most tricks it takes when the
other two play together against it -- as it decided, against the same had it decided the
other way, the seats after it deciding as they did.
"""

from __future__ import annotations

from .model import ExchangeReview
from .rebuild import RebuiltDeal
from .solving import Budget, Solvers, position

__all__ = ["review_exchange"]


def review_exchange(deal: RebuiltDeal, solvers: Solvers, budget: Budget) -> tuple[ExchangeReview, ...]:
    reviews = []
    for decision in deal.exchange:
        other_choice = "exchange" if decision.choice == "keep" else "keep"
        # the other line first: the seat's solver then ends on the deal as played, ready for its cards
        other = solvers.value(position(deal.game, deal.form, decision.other_hands, deal.trump, decision.leader), decision.seat, budget)
        value = solvers.value(position(deal.game, deal.form, decision.hands, deal.trump, decision.leader), decision.seat, budget)
        reviews.append(ExchangeReview(decision.seat, decision.choice, value, other_choice, other))
    return tuple(reviews)
