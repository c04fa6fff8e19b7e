"""The ``expert`` Le Neuf player: sampled deals, each solved exactly, the best average chosen.

It plays from its view like a person: it deals the cards it has not seen in ways
consistent with everything it knows (:class:`~nines.bots.neuf_worlds.NeufKnowledge`:
its hand, the cards played, the voids shown, the hand it left in the exchange), and
draws those deals in proportion to how well they explain what the others did in the
exchange (a player who kept probably liked their hand; a hand someone left in the
centre is probably weak).  Then:

* **card play** (perfect-information Monte Carlo): every legal card is scored by the
  exact solver in each sampled deal (the most tricks this player then makes against
  the other two together), the scores are summed, and the best card is played,
  keeping trumps and high cards among equals;
* **the exchange**: its own hand is compared with the hand in the centre in two
  ways whose errors differ, and the two estimates are averaged: in a few sampled
  deals both choices are solved from the first lead; and both hands are valued by
  :mod:`~nines.bots.neuf_hand_value` (a model fitted to solved deals) over many
  sampled centre hands.  The hand worth more is taken.

The thinking budget (deals per decision) is fixed in numbers, not seconds, so a
seeded match always plays the same way; the defaults keep decisions well under a
second at the median on one core.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..cards import Card, Suit, ace_high
from ..games.neuf import Exchange, Keep, NeufView
from ..games.tricks import Play
from ..solver import Solver, SolverNodeLimit, make_position
from .base import Decision, Reason
from .ismcts_neuf import centre_hand
from .neuf_basic import estimate_tricks
from .neuf_hand_value import hand_value
from .neuf_worlds import EXTRA, NeufKnowledge
from .sampling import resample
from .tricksim import ACE_HIGH_CARDS, NO_TRUMP

_local = threading.local()


def shared_solver() -> Solver:
    """One solver per thread, shared by the players in it (its table is the big cost)."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver(table_mb=32)
    return solver


def _default_worlds() -> dict[int, int]:
    return {13: 10, 12: 16, 11: 24, 10: 32, 9: 40}


def _four_hand_worlds() -> dict[int, int]:
    # 52 cards in play instead of 39: early solves cost ten times as much
    return {13: 3, 12: 5, 11: 10, 10: 16, 9: 24}


@dataclass(frozen=True)
class NeufBudget:
    """How much the expert thinks, in sampled deals."""

    worlds: Mapping[int, int] = field(default_factory=_default_worlds)
    """Deals solved per card played, by cards left in hand (``fewest_cards_worlds`` below those listed)."""
    four_hand_worlds: Mapping[int, int] = field(default_factory=_four_hand_worlds)
    """The same for the four-handed forms (partnerships, four individuals)."""
    fewest_cards_worlds: int = 48
    exchange_solved: int = 8
    """Deals in which both exchange choices are solved exactly."""
    exchange_valued: int = 100
    """Centre hands valued by the hand model."""
    oversample: int = 4
    """Deals drawn per deal kept when weighing them by the exchange."""
    max_nodes: int = 4_000_000
    """Search nodes one imagined deal may take (about half a second); a deal that needs more
    is left out.  Full four-handed deals have a rare heavy tail (one random deal in a
    thousand needs minutes), and a table must not wait for it."""

    def worlds_for(self, cards: int, hands: int = 3) -> int:
        table = self.worlds if hands == 3 else self.four_hand_worlds
        if cards in table:
            return table[cards]
        return self.fewest_cards_worlds if cards < min(table) else min(table.values())


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


def spare_offered(knowledge: NeufKnowledge) -> dict[str, bool]:
    """For each seat that has decided: was the hand in the centre then the untouched spare?"""
    offered = {}
    spare = True
    for seat in knowledge.exchange_order:
        if seat not in knowledge.exchanges:
            break
        offered[seat] = spare
        if knowledge.exchanges[seat] == "exchange":
            spare = False
    return offered


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

    def _worlds(self, knowledge: NeufKnowledge, count: int, trump: Suit | None) -> list[dict[str, list[int]]]:
        """``count`` deals consistent with the view, in proportion to how well they explain the exchange."""
        me = knowledge.seats[knowledge.me]
        others = [s for s in knowledge.exchanges if s != me]
        if not self.infer_exchange or not others:
            return [knowledge.sample_hands(self.rng) for _ in range(count)]
        offered = spare_offered(knowledge)
        candidates = [knowledge.sample_hands(self.rng) for _ in range(self.budget.oversample * count)]
        weights = []
        for hands in candidates:
            at_exchange = knowledge.hands_at_exchange(hands)
            weight = 1.0
            for seat in others:
                weight *= exchange_likelihood(at_exchange[seat][0], trump, offered[seat], knowledge.exchanges[seat])
            weights.append(weight)
        return resample(candidates, weights, count, self.rng)

    # -- the exchange ------------------------------------------------------------------

    def _exchange(self, view: NeufView) -> Decision:
        knowledge = NeufKnowledge.from_view(view)
        trump = None if knowledge.trump == NO_TRUMP else list(Suit)[knowledge.trump]
        me = view.seat
        assert me is not None
        seats = knowledge.seats
        leader = seats[(seats.index(view.dealer) + 1) % len(seats)]
        # the model: my hand against many likely centre hands
        valued = self._worlds(knowledge, self.budget.exchange_valued, trump)
        mine_model = hand_value(knowledge.hands_known[me], knowledge.trump)
        take_model = sum(hand_value(hands[EXTRA], knowledge.trump) for hands in valued) / len(valued)
        # the solver: both choices in a few likely deals
        solver = shared_solver()
        solved = valued[: self.budget.exchange_solved]
        gains = []
        for hands in solved:
            values = []
            try:
                for mine in (hands[me], hands[EXTRA]):
                    dealt = {seat: _cards(mine if seat == me else hands[seat]) for seat in seats}
                    position = make_position("neuf", dealt, trump, leader, form=view.form)
                    values.append(solver.value(position, me, max_nodes=self.budget.max_nodes))
            except SolverNodeLimit:
                continue  # too costly to solve now: the other deals and the hand model decide
            gains.append(values[1] - values[0])
        modelled = take_model - mine_model
        whose = centre_hand(view.centre_from)
        if gains:
            gain_solved = sum(gains) / len(gains)
            gain = (gain_solved + modelled) / 2
            detail = Reason("hint.neuf.exchange_worth", f"{whose} is worth {gain:+.1f} tricks to me (solved {gain_solved:+.1f}, "
                            f"hand model {modelled:+.1f})", whose=whose, gain_delta=round(gain, 1),
                            solved_delta=round(gain_solved, 1), model_delta=round(modelled, 1))
        else:
            gain = modelled
            detail = Reason("hint.neuf.exchange_worth_model", f"{whose} is worth {gain:+.1f} tricks to me (hand model; no likely "
                            "deal could be solved in time)", whose=whose, gain_delta=round(gain, 1))
        if gain > 0:
            return Decision(Exchange(), Reason("hint.then_exchange", f"{detail}: exchange", detail=detail))
        return Decision(Keep(), Reason("hint.then_keep", f"{detail}: keep", detail=detail))

    # -- card play ---------------------------------------------------------------------

    def _play(self, view: NeufView) -> Decision:
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), Reason("hint.only_card_mine", f"{legal[0].pretty} is the only card I may play", card=legal[0]))
        knowledge = NeufKnowledge.from_view(view)
        cards_left = len(view.hand)
        trump = None if knowledge.trump == NO_TRUMP else list(Suit)[knowledge.trump]
        seats = knowledge.seats
        leader = view.trick.leader if view.trick is not None else seats[knowledge.me]
        played = [Card.parse(code) for _, code in view.trick.plays] if view.trick is not None else []
        solver = shared_solver()
        totals = dict.fromkeys(legal, 0)
        worlds = self._worlds(knowledge, self.budget.worlds_for(cards_left, len(seats)), trump)
        n = 0
        for hands in worlds:
            position = make_position(
                "neuf", {seat: _cards(hands[seat]) for seat in seats}, trump, leader, played, form=view.form
            )
            try:
                scores = solver.score_cards(position, max_nodes=self.budget.max_nodes)
            except SolverNodeLimit:
                continue  # too costly to solve now: the other deals decide
            for card, tricks in scores.items():
                totals[card] += tricks
            n += 1

        def preference(card: Card) -> tuple[int, bool, int]:
            # among equals, keep trumps and high cards for later
            assert card.rank is not None
            return (totals[card], card.suit != trump, -ace_high(card.rank))

        ranked = sorted(legal, key=preference, reverse=True)
        best = ranked[0]
        if n == 0:  # every total is 0: the ranking keeps trumps and high cards
            return Decision(Play(best), Reason("hint.neuf.unsolved", f"no likely deal could be solved in time: {best.pretty}, keeping trumps and high cards", card=best))
        mine = "tricks for us" if view.form == "partners" else "tricks for me"
        reason = Reason(
            "hint.neuf.solved_us" if view.form == "partners" else "hint.neuf.solved_me",
            f"{best.pretty} averages {totals[best] / n:.2f} {mine} of the {cards_left} left in {n} likely deals, solved exactly",
            card=best, tricks=round(totals[best] / n, 2), left=cards_left, deals=n,
        )
        if len(ranked) > 1:
            second = round(totals[ranked[1]] / n, 2)
            reason = Reason("hint.neuf.runner_up", f"{reason} ({ranked[1].pretty}: {totals[ranked[1]] / n:.2f})",
                            first=reason, card=ranked[1], tricks=second)
        return Decision(Play(best), reason)
