"""The ``expert`` Le Neuf player: sampled deals, each solved exactly, the best average chosen.

It plays from its view like a person: it deals the cards it has not seen in ways
consistent with everything it knows (:class:`~nines.bots.neuf_worlds.NeufKnowledge`:
its hand, the cards played, the voids shown, the hand it left in the exchange), and
weighs each imagined deal by how well it explains what the others did in the
exchange (a player who kept probably liked their hand; a hand someone left in the
centre is probably weak).  Then:

* **card play** (perfect-information Monte Carlo): every legal card is scored by the
  exact solver in each sampled deal (the most tricks this player then makes against
  the other two together), the scores are summed, and the best card is played;
  the first cards of a deal, when solving a whole deal many times would take too
  long, are chosen by a longer SO-ISMCTS search instead;
* **the exchange**: its own hand is compared with the hand in the centre in each
  sampled deal, both valued by :mod:`~nines.bots.neuf_hand_value` (a model fitted to
  exactly solved deals, since solving whole deals is too slow to repeat here), and
  the hand worth more on average is taken.

The thinking budget (worlds per decision) is fixed in numbers, not seconds, so a
seeded match always plays the same way; the defaults keep a decision under a second
at the median on one core.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from ..cards import Card, Suit, ace_high
from ..games.neuf import Exchange, Keep, NeufView
from ..games.tricks import Play
from ..solver import Solver, make_position
from .base import Decision
from .ismcts import search
from .ismcts_neuf import result_function
from .neuf_basic import estimate_tricks
from .neuf_hand_value import hand_value
from .neuf_worlds import EXTRA, NeufKnowledge
from .tricksim import ACE_HIGH_CARDS, FOLLOW_SUIT, NO_TRUMP

_local = threading.local()


def shared_solver() -> Solver:
    """One solver per thread, shared by the players in it (its table is the big cost)."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver(table_mb=32)
    return solver


@dataclass(frozen=True)
class NeufBudget:
    """How much the expert thinks: sampled deals per decision, by cards left in its hand."""

    worlds: Mapping[int, int] = None  # type: ignore[assignment]
    exchange_worlds: int = 120
    exchange_tries: int = 15
    exchange_margin: float = 0.0
    """Exchange when the centre hand is worth this many tricks more than one's own."""
    search_above: int = 11
    """With more cards than this in hand, card play uses SO-ISMCTS instead of solving."""
    search_iterations: int = 1500
    tries: int = 40
    """Deals drawn at most per accepted one when weighing by the exchange."""

    def __post_init__(self) -> None:
        if self.worlds is None:
            object.__setattr__(self, "worlds", {11: 14, 10: 24, 9: 32})

    def worlds_for(self, cards: int) -> int:
        return self.worlds.get(cards, 40 if cards < min(self.worlds) else min(self.worlds.values()))


def _cards(codes: list[int]) -> list[Card]:
    return [ACE_HIGH_CARDS[c] for c in codes]


def exchange_likelihood(hand: list[int], trump: Suit | None, centre_is_spare: bool, decision: str) -> float:
    """How likely a sensible player with ``hand`` was to make ``decision`` (keep or exchange).

    A player exchanges a hand that looks short of the quota, more readily for an
    unseen spare than for a hand someone else already gave up.
    """
    estimate = estimate_tricks(_cards(hand), trump)
    threshold = 3.0 if centre_is_spare else 2.0
    exchange = 0.05 + 0.9 / (1.0 + math.exp((estimate - threshold) / 0.6))
    return exchange if decision == "exchange" else 1.0 - exchange


class NeufExpert:
    name = "expert"

    def __init__(self, rng: random.Random, budget: NeufBudget | None = None, infer_exchange: bool = True) -> None:
        self.rng = rng
        self.budget = budget or NeufBudget()
        self.infer_exchange = infer_exchange

    def decide(self, view: NeufView) -> Decision:
        if view.phase == "exchange":
            return self._exchange(view)
        return self._play(view)

    # -- sampling ----------------------------------------------------------------------

    def _worlds(
        self, knowledge: NeufKnowledge, count: int, trump: Suit | None, tries: int | None = None
    ) -> list[dict[str, list[int]]]:
        """``count`` deals consistent with the view, drawn in proportion to how well they explain the exchange."""
        others = [s for s in knowledge.exchanges if s != knowledge.seats[knowledge.me]]
        if not self.infer_exchange or not others:
            return [knowledge.sample_hands(self.rng) for _ in range(count)]
        spare_offered = self._spare_offered(knowledge)
        worlds = []
        for _ in range(count):
            best, best_weight = None, -1.0
            for _ in range(tries or self.budget.tries):
                hands = knowledge.sample_hands(self.rng)
                at_exchange = knowledge.hands_at_exchange(hands)
                weight = 1.0
                for seat in others:
                    hand, _centre = at_exchange[seat]
                    weight *= exchange_likelihood(hand, trump, spare_offered[seat], knowledge.exchanges[seat])
                if weight > best_weight:
                    best, best_weight = hands, weight
                if self.rng.random() < weight:
                    break
            assert best is not None
            worlds.append(best)
        return worlds

    @staticmethod
    def _spare_offered(knowledge: NeufKnowledge) -> dict[str, bool]:
        """For each decided seat: was the hand in the centre the untouched spare?"""
        offered = {}
        spare = True
        for seat in knowledge.exchange_order:
            if seat not in knowledge.exchanges:
                break
            offered[seat] = spare
            if knowledge.exchanges[seat] == "exchange":
                spare = False
        return offered

    # -- the exchange ------------------------------------------------------------------

    def _exchange(self, view: NeufView) -> Decision:
        knowledge = NeufKnowledge.from_view(view)
        trump = None if knowledge.trump == NO_TRUMP else list(Suit)[knowledge.trump]
        mine = hand_value(knowledge.hands_known[view.seat], knowledge.trump)  # type: ignore[index]
        worlds = self._worlds(knowledge, self.budget.exchange_worlds, trump, self.budget.exchange_tries)
        take = sum(hand_value(hands[EXTRA], knowledge.trump) for hands in worlds) / len(worlds)
        whose = "the spare hand" if view.centre_from == "spare" else f"the hand {view.centre_from} left"
        if take > mine + self.budget.exchange_margin:
            return Decision(Exchange(), f"my hand is worth about {mine:.1f} tricks, {whose} {take:.1f} in {len(worlds)} likely deals: exchange")
        return Decision(Keep(), f"my hand is worth about {mine:.1f} tricks, {whose} {take:.1f} in {len(worlds)} likely deals: keep")

    # -- card play ---------------------------------------------------------------------

    def _play(self, view: NeufView) -> Decision:
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), f"{legal[0].pretty} is the only card I may play")
        knowledge = NeufKnowledge.from_view(view)
        cards_left = len(view.hand)
        if cards_left > self.budget.search_above:
            return self._search(view, knowledge)
        trump = None if knowledge.trump == NO_TRUMP else list(Suit)[knowledge.trump]
        seats = knowledge.seats
        leader = view.trick.leader if view.trick is not None else seats[knowledge.me]
        played = [Card.parse(code) for _, code in view.trick.plays] if view.trick is not None else []
        solver = shared_solver()
        totals = {card: 0 for card in legal}
        worlds = self._worlds(knowledge, self.budget.worlds_for(cards_left), trump)
        for hands in worlds:
            position = make_position(
                "neuf", {seat: _cards(hands[seat]) for seat in seats}, trump, leader, played, form=view.form
            )
            for card, tricks in solver.score_cards(position).items():
                totals[card] += tricks
        n = len(worlds)

        def preference(card: Card) -> tuple[int, int, int]:
            # among equals, keep trumps and high cards for later
            assert card.rank is not None
            return (totals[card], card.suit != trump, -ace_high(card.rank))

        ranked = sorted(legal, key=preference, reverse=True)
        best = ranked[0]
        mine = "tricks for us" if view.form == "partners" else "tricks for me"
        reason = f"{best.pretty} averages {totals[best] / n:.2f} {mine} of the {cards_left} left in {n} likely deals, solved exactly"
        if len(ranked) > 1:
            reason += f" ({ranked[1].pretty}: {totals[ranked[1]] / n:.2f})"
        return Decision(Play(best), reason)

    def _search(self, view: NeufView, knowledge: NeufKnowledge) -> Decision:
        found = search(
            knowledge.sample_position, FOLLOW_SUIT, result_function(view.form, len(view.seats)), self.rng,
            self.budget.search_iterations,
        )
        card = ACE_HIGH_CARDS[found.card]
        share = found.value.get(found.card, 0.0) * 13
        return Decision(
            Play(card),
            f"early in the deal: {card.pretty} did best in {self.budget.search_iterations} simulated deals "
            f"(about {share:.1f} tricks for me)",
        )
