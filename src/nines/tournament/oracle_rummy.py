"""The Nines rummy oracle: the expert's hand plan with every card known (tournaments only).

Rummy has no exact solver, so this oracle does not play perfectly: it judges hands
exactly as ``expert`` does (:mod:`nines.bots.expert_rummy`, the plan of
:mod:`nines.bots.rummy_plan`), but where the expert guesses over the unseen cards it
knows.  The gap between ``expert`` and ``oracle`` on the same deals is what not seeing
the cards costs that way of judging hands.

* **Drawing**: the top discard against the stock's actual next card, not the average
  over the unseen cards.
* **Discarding**: the look-ahead uses the card this player will actually draw next: the
  stock card its turn will reach, one further down when the next player takes the
  discard (that player's actual hand decides whether it would).  That card carries 95%
  of the weight; the other 5% is the expert's own average over the unseen cards, which
  breaks ties between discards the next card does not tell apart by what may still join
  a run later (the exact card alone made the look-ahead short-sighted: on the 500
  matches of seed 11 it won no more than the expert).  When the stock runs out before
  then, it is rebuilt by a shuffle of the discard pile, and the look-ahead averages over
  that pile.
* **Danger**: a discard is judged against the opponents' actual hands, not sampled ones.
* **Set plays**: exactly the expert's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from ..bots.base import Decision
from ..bots.expert_rummy import RummyBudget, RummyExpert, RummyReading, fits_hand
from ..cards import Card
from ..games.rummy import RummyState

NEXT_CARD_SHARE = 0.95
"""The weight of the card the look-ahead knows it will draw next; the rest is the expert's average."""


class SeeingReading(RummyReading):
    """The expert's reading of a seat's view, answering what the view hides from the whole state."""

    def __init__(self, state: RummyState, seat: str) -> None:
        super().__init__(state.view(seat))
        deal = state.deal
        self.stock = list(deal.stock)  # top first: the actual order of the next draws
        self.hands = {s: list(deal.hands[s]) for s in self.opponents}
        self.opponent_opened = {s: s in deal.opened for s in self.opponents}
        self.next_player = state.left_of(seat)

    def stock_draws(self) -> Counter[Card]:
        """The stock's actual top card (the unseen cards only if the stock is empty)."""
        return Counter(self.stock[:1]) if self.stock else super().stock_draws()

    def takes(self, discard: Card) -> bool:
        """Whether the next player would take ``discard``: a wild, or a card that fits their actual hand."""
        seat = self.next_player
        return self.is_wild(discard) or fits_hand(self, self.hands[seat], self.opponent_opened[seat], discard)

    def next_draws(self, discard: Card) -> Counter[Card]:
        """The card this player's next stock draw will turn up once it has thrown ``discard``.

        Every opponent draws once before then: from the stock (one card further down
        each), except the next player when it would take the discard.  That card weighs
        :data:`NEXT_CARD_SHARE`; the expert's guess (the unseen cards) the rest, as a
        tie-break.  Past the end of the stock, the stock is rebuilt by shuffling the
        discard pile: average over it.
        """
        ahead = len(self.opponents) - (1 if self.takes(discard) else 0)
        if ahead < len(self.stock):
            later = super().next_draws(discard)
            rest = sum(later.values())
            weight = round(rest * NEXT_CARD_SHARE / (1 - NEXT_CARD_SHARE))
            return Counter({self.stock[ahead]: max(1, weight)}) + later
        return Counter(self.view.discard_pile) + Counter([discard])

    def opponent_hands(self, rng: random.Random, samples: int) -> Iterator[tuple[list[Card], bool, float]]:
        """Each opponent's actual hand, once (no sampling: ``rng`` and ``samples`` go unused)."""
        for seat in self.opponents:
            yield self.hands[seat], self.opponent_opened[seat], 1.0 / len(self.opponents)

    def stock_note(self, value: float) -> str:
        if not self.stock:
            return super().stock_note(value)
        return f"the stock's next card, {self.stock[0].code}, {value:.1f}"

    def danger_note(self, share: float) -> str:
        return "; it fits an opponent's actual hand"


class RummyOracle:
    """The rummy expert deciding from a reading that sees every card."""

    name = "oracle"
    sees_all_cards = True

    def __init__(self, rng: random.Random, budget: RummyBudget | None = None) -> None:
        self.expert = RummyExpert(rng, budget)

    def decide_state(self, state: RummyState, seat: str) -> Decision:  # type: ignore[override]
        decision = self.expert.decide_reading(SeeingReading(state, seat))
        return Decision(decision.action, f"seeing every card: {decision.reason}")


__all__ = ["RummyOracle", "SeeingReading"]
