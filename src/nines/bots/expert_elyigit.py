"""The ``expert`` player of Elyigit's Nines: sampled deals, each solved exactly.

It works from its view only.  The unseen cards are dealt consistently with everything
the compulsory rule has revealed (:class:`~nines.bots.elyigit_worlds.ElyigitKnowledge`),
and in the auction each imagined deal is weighed by how well it explains the calls
made so far (a player who bid is likely to hold a good hand, one who passed a weaker
one), using the basic player's hand valuation as the model of a bidder.  Then:

* **the auction**: in each sampled deal every trump is solved exactly with this player
  as declarer, and so is the standing contract with its bidder as declarer; the
  contract with the best expected score (made: the bid; defeated: the bid and one more
  to the defenders) is bid if it is worth more than letting the standing contract be
  played (which may be its partner's, worth raising only for more);
* **trumps**: the declarer, who cannot yet see the dummy, solves every trump in each
  sampled deal and names the one that makes the contract most often;
* **card play** (perfect-information Monte Carlo): every legal card is scored by the
  exact solver in each sampled deal, and the card that reaches the side's target (the
  contract, or the tricks that defeat it) in the most deals is played, more tricks
  breaking ties.  The declarer plays the dummy's cards the same way.

The budget is counted in deals, so a seeded match replays exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, Suit, ace_low
from ..games.elyigit import ElyigitView
from ..games.elyigit.options import left_of, side_of
from ..games.tricks import Play
from ..solver import make_position
from .base import Decision, Reason
from .elyigit_basic import estimate_tricks
from .elyigit_worlds import ElyigitKnowledge, code
from .expert_neuf import shared_solver
from .ismcts_elyigit import choose_call, choose_trump, contract_value, simulate_contracts, solved_exactly
from .sampling import resample
from .tricksim import ACE_LOW_CARDS

SUITS_BY_INDEX = list(Suit)


@dataclass(frozen=True)
class ElyigitBudget:
    auction_worlds: int = 40
    trump_worlds: int = 60
    play_worlds: int = 60
    oversample: int = 3
    """Deals drawn per deal kept when weighing them by the auction."""


def _cards(codes: list[int]) -> list[Card]:
    return [ACE_LOW_CARDS[c] for c in codes]


def _hand_strength(hand: list[int]) -> float:
    """The basic player's estimate of a hand's tricks in its best trump."""
    cards = _cards(hand)
    return max(estimate_tricks(cards, suit) for suit in Suit)


def call_likelihood(strength: float, call: str, standing: int | None, min_bid: int) -> float:
    """How likely a sensible bidder with a hand of ``strength`` was to make ``call``.

    A bid promises a hand towards the level bid (a partner counts for about two
    tricks); a pass when a bid was open suggests a hand short of it.
    """
    level = (standing + 1) if standing is not None else min_bid
    expected = strength + 2.2  # the side's tricks, an unseen partner counting about 2.2
    p_bid = 0.1 + 0.8 / (1.0 + math.exp(-(expected - level) / 0.7))
    return p_bid if call.startswith("bid") else 1.0 - p_bid


class ElyigitExpert:
    name = "expert"

    def __init__(self, rng: random.Random, budget: ElyigitBudget | None = None, infer_auction: bool = True) -> None:
        self.rng = rng
        self.budget = budget or ElyigitBudget()
        self.infer_auction = infer_auction

    # -- sampling ----------------------------------------------------------------------

    def _worlds(self, view: ElyigitView, knowledge: ElyigitKnowledge, count: int) -> list[dict[str, list[int]]]:
        """Deals consistent with the view, drawn in proportion to how well they explain the auction."""
        callers = {seat for seat, _ in view.auction if seat in knowledge.holders}
        if not self.infer_auction or not callers:
            return [knowledge.sample_hands(self.rng) for _ in range(count)]
        played = self._played_by(view)
        candidates = [knowledge.sample_hands(self.rng) for _ in range(self.budget.oversample * count)]
        weights = []
        for hands in candidates:
            # each caller's hand as it was in the auction: what it holds now and what it has played
            strength = {seat: _hand_strength(hands[seat] + played.get(seat, [])) for seat in callers}
            weight = 1.0
            standing: int | None = None
            for seat, call in view.auction:
                if seat in strength:
                    weight *= call_likelihood(strength[seat], call, standing, view.min_bid)
                if call.startswith("bid"):
                    standing = int(call.split()[1])
            weights.append(weight)
        return resample(candidates, weights, count, self.rng)

    @staticmethod
    def _played_by(view: ElyigitView) -> dict[str, list[int]]:
        tricks = list(view.tricks_played) + ([view.trick] if view.trick is not None else [])
        played: dict[str, list[int]] = {}
        for trick in tricks:
            for seat, card in trick.plays:
                played.setdefault(seat, []).append(code(card))
        return played

    # -- deciding ----------------------------------------------------------------------

    def decide(self, view: ElyigitView) -> Decision:
        if view.phase == "auction":
            return self._auction(view)
        if view.phase == "trump":
            knowledge = ElyigitKnowledge.from_view(view)
            worlds = self._worlds(view, knowledge, self.budget.trump_worlds)
            tricks = simulate_contracts(view, worlds, self.rng, self._solve_for(view))
            return choose_trump(view, tricks, solved_exactly(len(worlds)))
        return self._play(view)

    @staticmethod
    def _solve_for(view: ElyigitView) -> Callable[[dict[str, list[int]], int, str], int]:
        solver = shared_solver()
        seats = list(view.seats)

        def solve(hands: dict[str, list[int]], trump: int, declarer: str) -> int:
            suit = None if trump < 0 else SUITS_BY_INDEX[trump]
            position = make_position("elyigit", {s: _cards(hands[s]) for s in seats}, suit, left_of(declarer))
            return solver.value(position, side_of(declarer))

        return solve

    def _auction(self, view: ElyigitView) -> Decision:
        """Bid when a contract of ours is worth more than letting the standing contract be played."""
        knowledge = ElyigitKnowledge.from_view(view)
        worlds = self._worlds(view, knowledge, self.budget.auction_worlds)
        solve = self._solve_for(view)
        tricks = simulate_contracts(view, worlds, self.rng, solve)
        standing = 0.0
        if view.high_bidder is not None and view.high_bid is not None:
            # the standing contract, its declarer naming the trump best for it in each deal
            theirs = simulate_contracts(view, worlds, self.rng, solve, declarer=view.high_bidder)
            best = [max(counts[i] for counts in theirs.values()) for i in range(len(worlds))]
            value = contract_value(best, view.high_bid)
            standing = value if side_of(view.high_bidder) == side_of(view.seat or "") else -value
        return choose_call(view, tricks, solved_exactly(len(worlds)), standing)

    def _play(self, view: ElyigitView) -> Decision:
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), Reason("hint.only_card", f"{legal[0].pretty} is the only card the rule allows", card=legal[0]))
        assert view.declarer is not None and view.contract is not None and view.targets is not None
        knowledge = ElyigitKnowledge.from_view(view)
        seats = list(view.seats)
        mover = view.to_act
        assert mover is not None
        side = side_of(mover)
        target = view.targets[side]
        have = view.side_tricks[side]
        trump = None if knowledge.trump < 0 else SUITS_BY_INDEX[knowledge.trump]
        leader = view.trick.leader if view.trick is not None else mover
        played = [Card.parse(c) for _, c in view.trick.plays] if view.trick is not None else []
        solver = shared_solver()
        reach = dict.fromkeys(legal, 0)
        tricks = dict.fromkeys(legal, 0)
        worlds = self._worlds(view, knowledge, self.budget.play_worlds)
        for hands in worlds:
            position = make_position("elyigit", {s: _cards(hands[s]) for s in seats}, trump, leader, played)
            for card, value in solver.score_cards(position).items():
                tricks[card] += value
                reach[card] += have + value >= target

        def preference(card: Card) -> tuple[int, int, bool, int]:
            assert card.rank is not None
            return (reach[card], tricks[card], card.suit != trump, -ace_low(card.rank))

        ranked = sorted(legal, key=preference, reverse=True)
        best = ranked[0]
        n = len(worlds)
        declaring = side == side_of(view.declarer)
        whose = "the contract" if declaring else "the defence"
        reason = Reason(
            "hint.elyigit.reaches_contract" if declaring else "hint.elyigit.reaches_defence",
            f"{best.pretty} reaches {target} tricks for {whose} in {100 * reach[best] / n:.0f}% of {n} likely deals "
            f"solved exactly ({tricks[best] / n:.1f} tricks to come)",
            card=best, target=target, percent=round(100 * reach[best] / n), deals=n, tricks=round(tricks[best] / n, 1),
        )
        if len(ranked) > 1:
            reason = Reason("hint.elyigit.runner_up", f"{reason}; {ranked[1].pretty}: {100 * reach[ranked[1]] / n:.0f}%",
                            first=reason, card=ranked[1], percent=round(100 * reach[ranked[1]] / n))
        if mover != view.seat:
            reason = Reason("hint.elyigit.dummy", f"dummy plays {reason}", reason=reason)
        return Decision(Play(best), reason)


__all__ = ["ElyigitBudget", "ElyigitExpert", "call_likelihood"]
