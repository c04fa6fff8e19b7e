"""Elyigit's contract: the tricks the declaring side could make with each trump, against the bid.

Judged when trumps are named, every hand known: for each trump the declarer could have
named, the declaring side's tricks with every trick played out from the first lead.
"""

from __future__ import annotations

from ..games.tricks import trump_code
from .model import ContractReview
from .rebuild import RebuiltDeal
from .solving import Budget, Solvers, position

__all__ = ["review_contract"]


def review_contract(deal: RebuiltDeal, solvers: Solvers, budget: Budget) -> ContractReview | None:
    choice = deal.contract
    if choice is None or deal.unscorable is not None:
        return None
    named = trump_code(choice.trump)
    by_trump: dict[str, int | None] = {}
    # the trump named last, so that the solver's table is the deal's when its cards are scored
    for code in sorted(choice.choices, key=lambda c: c == named):
        trump, hands, leader = choice.choices[code]
        by_trump[code] = solvers.value(position(deal.game, deal.form, hands, trump, leader), choice.declarer, budget)
    ordered = {code: by_trump[code] for code in choice.choices}
    side = "NS" if choice.declarer in ("N", "S") else "EW"
    return ContractReview(choice.declarer, side, choice.bid, named, ordered)
