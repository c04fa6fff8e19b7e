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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card, Suit, ace_low
from ..games.elyigit import ElyigitView
from ..games.elyigit.options import left_of, partner_of, side_of
from ..games.tricks import Play
from ..solver import make_position
from .base import Decision, Reason
from .elyigit_basic import (
    BID_SLACK,
    PARTNER_BID_CAP,
    PARTNER_PASSED,
    PARTNER_UNSEEN,
    SIDE_BASE,
    SIDE_SCALE,
    best_trump,
    estimate_tricks,
)
from .elyigit_worlds import ElyigitKnowledge, code
from .expert_neuf import shared_solver
from .ismcts_elyigit import choose_call, choose_trump, contract_value, simulate_contracts, solved_exactly
from .sampling import resample
from .tricksim import ACE_LOW_CARDS, NO_TRUMP

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


# The model of a sensible bidder (the basic player's valuation, and the levels the search
# players bid): its side is worth ``SIDE_BASE + SIDE_SCALE * strength + support`` tricks,
# ``support`` being what it can count on from its partner, and it bids a level when the
# side looks good for it less ``BID_SLACK``.  ``CALL_SPREAD`` is how loosely it does so.
CALL_SPREAD = 0.7
CALL_FLOOR = 0.05
"""Any call has at least this chance (players err, and other players bid other ways)."""


def _looks_good_for(side: float, level: int, spread: float = CALL_SPREAD, slack: float = BID_SLACK) -> float:
    return 1.0 / (1.0 + math.exp(-(side - (level - slack)) / spread))


def support_from(partner_calls: list[str]) -> float:
    """What a bidder counts on from its partner, given the partner's calls so far (the basic player's rule)."""
    bids = [int(call.split()[1]) for call in partner_calls if call.startswith("bid")]
    if bids:
        return min(PARTNER_BID_CAP, max(PARTNER_UNSEEN, bids[0] - 2.3))
    return PARTNER_PASSED if partner_calls else PARTNER_UNSEEN


def call_likelihood(strength: float, call: str, standing: int | None, min_bid: int,
                    support: float = PARTNER_UNSEEN, jumps: float = 0.5, spread: float = CALL_SPREAD,
                    slack: float = BID_SLACK) -> float:
    """How likely a sensible bidder with a hand of ``strength`` was to make ``call``.

    The bidder's side looks good for ``SIDE_BASE + SIDE_SCALE * strength + support`` tricks,
    and it bids a level when that is at least the level less ``slack``.
    A pass says the side looks short of the lowest bid open; a bid of ``b`` says it looks
    good for ``b``, and, as far as the bidder is one who bids the level it expects
    (``jumps``: 1 for a player who always does, 0 for one who always bids the least), not
    for ``b + 1``: a jump speaks of a strong hand, a minimum bid of a hand short of more.
    """
    level = (standing + 1) if standing is not None else min_bid
    side = SIDE_BASE + SIDE_SCALE * strength + support
    if call.startswith("bid"):
        bid = int(call.split()[1])
        p = _looks_good_for(side, bid, spread, slack)
        if bid < 9:
            p *= 1.0 - jumps * _looks_good_for(side, bid + 1, spread, slack)
    else:
        p = 1.0 - _looks_good_for(side, level, spread, slack)
    return CALL_FLOOR + (1.0 - 2 * CALL_FLOOR) * p


@dataclass(frozen=True)
class CallModel:
    """How a seat's calls are read: :func:`call_likelihood` with a ``slack`` that depends on whose the contract is.

    ``over``: the slack of a bid over the opponents' contract (or an opening); ``raise_``:
    of a bid over its own partner's contract (a player who takes the contract off its
    partner only with tricks to spare has a negative one).
    """

    over: float = BID_SLACK
    raise_: float = BID_SLACK
    spread: float = CALL_SPREAD
    jumps: float = 0.5


SELF_MODEL = CallModel(over=0.7, raise_=-0.6, spread=0.3, jumps=0.0)
"""How the expert itself bids (fitted by maximum likelihood to 839 of its calls, 300 deals against basic players)."""
BASIC_MODEL = CallModel(over=0.3, raise_=-0.2, spread=0.3, jumps=0.0)
"""How the basic player bids (its own rule: the least bid, over its partner only with half a trick to spare)."""


def auction_likelihood(auction: Sequence[tuple[str, str]], strength: dict[str, float], min_bid: int,
                       jumps: float = 0.5, spread: float = CALL_SPREAD,
                       models: dict[str, CallModel] | None = None) -> float:
    """How well the hands of the given ``strength`` explain the calls of their seats (the others' calls are ignored).

    A seat in ``models`` is read with its :class:`CallModel`; the others with ``jumps`` and ``spread``.
    """
    weight = 1.0
    standing: int | None = None
    holder: str | None = None
    calls: dict[str, list[str]] = {}
    for seat, call in auction:
        if seat in strength:
            partner = partner_of(seat)
            support = support_from(calls.get(partner, []))
            model = models.get(seat) if models else None
            if model is None:
                weight *= call_likelihood(strength[seat], call, standing, min_bid, support, jumps, spread)
            else:
                slack = model.raise_ if holder == partner else model.over
                weight *= call_likelihood(strength[seat], call, standing, min_bid, support, model.jumps, model.spread, slack)
        calls.setdefault(seat, []).append(call)
        if call.startswith("bid"):
            standing = int(call.split()[1])
            holder = seat
    return weight


def _call_model(model: CallModel | Sequence[float] | None) -> CallModel | None:
    return model if model is None or isinstance(model, CallModel) else CallModel(*model)


class ElyigitExpert:
    name = "expert"

    def __init__(self, rng: random.Random, budget: ElyigitBudget | None = None, infer_auction: bool = True,
                 jumps: float = 0.5, standing_trump: str = "hand",
                 declarer_edge: tuple[float, float] = (0.35, 0.0),
                 their_made: tuple[float, float] = (1.0, 1.0), call_spread: float = CALL_SPREAD,
                 infer_partner: bool = True, uncontested_edge: tuple[float, float] | None = None,
                 partner_model: CallModel | Sequence[float] | None = SELF_MODEL,
                 opponent_model: CallModel | Sequence[float] | None = BASIC_MODEL) -> None:
        self.rng = rng
        self.budget = budget or ElyigitBudget()
        self.infer_auction = infer_auction
        self.jumps = jumps
        self.standing_trump = standing_trump
        """How the standing contract's declarer names trumps: "hand" (from its own hand) or "max" (best in each deal)."""
        self.declarer_edge = tuple(declarer_edge)
        """How often a contract of ours solved one (two) tricks short is made (:meth:`_contract_value`)."""
        self.uncontested_edge = None if uncontested_edge is None else tuple(uncontested_edge)
        """The declarer's edge while no opponent has bid (``None``: ``declarer_edge`` throughout)."""
        self.their_made = tuple(their_made)
        """How often the opponents' contract solved as made exactly (with a trick to spare) is made (:meth:`_their_value`)."""
        self.call_spread = call_spread
        """How loosely a bidder is taken to follow the model of a sensible bidder (:func:`call_likelihood`)."""
        self.infer_partner = infer_partner
        self.partner_model = _call_model(partner_model)
        """How the partner's calls are read (:class:`CallModel`; ``None``: with ``jumps`` and ``call_spread``)."""
        self.opponent_model = _call_model(opponent_model)
        """How the opponents' calls are read (``None``: with ``jumps`` and ``call_spread``)."""
        """Whether the partner's calls weigh the imagined deals too (the opponents' always do)."""

    # -- sampling ----------------------------------------------------------------------

    def _worlds(self, view: ElyigitView, knowledge: ElyigitKnowledge, count: int) -> list[dict[str, list[int]]]:
        """Deals consistent with the view, drawn in proportion to how well they explain the auction."""
        callers = {seat for seat, _ in view.auction if seat in knowledge.holders}
        if not self.infer_partner and view.seat is not None:
            callers.discard(partner_of(view.seat))
        if not self.infer_auction or not callers:
            return [knowledge.sample_hands(self.rng) for _ in range(count)]
        played = self._played_by(view)
        models: dict[str, CallModel] = {}
        for seat in callers:
            model = self.partner_model if view.seat is not None and seat == partner_of(view.seat) else self.opponent_model
            if model is not None:
                models[seat] = model
        candidates = [knowledge.sample_hands(self.rng) for _ in range(self.budget.oversample * count)]
        weights = []
        for hands in candidates:
            # each caller's hand as it was in the auction: what it holds now and what it has played
            strength = {seat: _hand_strength(hands[seat] + played.get(seat, [])) for seat in callers}
            weights.append(auction_likelihood(view.auction, strength, view.min_bid, self.jumps, self.call_spread, models))
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
        edge = self._edge(view)

        def ours_value(counts: list[int], bid: int) -> float:
            return self._contract_value(counts, bid, edge)

        standing = 0.0
        if view.high_bidder is not None and view.high_bid is not None:
            bidder = view.high_bidder
            if self.standing_trump == "hand":
                # the standing contract, its declarer naming the trump its own hand is best for
                # (it has not seen the dummy), as the basic player's valuation judges it
                best = []
                for hands in worlds:
                    suit, _ = best_trump(_cards(hands[bidder]), view.no_trumps)
                    best.append(solve(hands, NO_TRUMP if suit is None else suit.index, bidder))
            else:
                # the standing contract, its declarer naming the trump best for it in each deal
                theirs = simulate_contracts(view, worlds, self.rng, solve, declarer=bidder)
                best = [max(counts[i] for counts in theirs.values()) for i in range(len(worlds))]
            ours = side_of(bidder) == side_of(view.seat or "")
            value = ours_value(best, view.high_bid) if ours else self._their_value(best, view.high_bid)
            standing = value if ours else -value
        return choose_call(view, tricks, solved_exactly(len(worlds)), standing, ours_value)

    def _edge(self, view: ElyigitView) -> tuple[float, float]:
        """The declarer's edge for a contract of ours: ``uncontested_edge`` while no opponent has bid."""
        if self.uncontested_edge is not None:
            mine = side_of(view.seat or "")
            if not any(call.startswith("bid") and side_of(seat) != mine for seat, call in view.auction):
                return self.uncontested_edge  # type: ignore[return-value]
        return self.declarer_edge  # type: ignore[return-value]

    def _contract_value(self, tricks: list[int], bid: int, edge: tuple[float, float] | None = None) -> float:
        """Expected score of our side's contract of ``bid`` when the solver gives it ``tricks`` in the sampled deals.

        Defenders who cannot see the cards err where the solver does not: a deal solved
        one trick short is counted as made ``declarer_edge[0]`` of the time, two tricks
        short ``declarer_edge[1]`` of the time (or ``edge``, where given).
        """
        one, two = edge if edge is not None else self.declarer_edge
        if not one and not two:
            return contract_value(tricks, bid)
        made = sum(1.0 if t >= bid else one if t == bid - 1 else two if t == bid - 2 else 0.0 for t in tricks) / len(tricks)
        return made * bid - (1 - made) * (bid + 1)

    def _their_value(self, tricks: list[int], bid: int) -> float:
        """Expected score of the opponents' contract of ``bid`` (for them) when the solver gives them ``tricks``.

        Declarers who cannot see the cards err where the solver does not: a deal they
        make exactly is made ``their_made[0]`` of the time, with a trick to spare ``their_made[1]``.
        """
        exact, spare = self.their_made
        if exact == spare == 1.0:
            return contract_value(tricks, bid)
        made = sum(exact if t == bid else spare if t == bid + 1 else 1.0 if t > bid else 0.0 for t in tricks) / len(tricks)
        return made * bid - (1 - made) * (bid + 1)

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


__all__ = ["BASIC_MODEL", "SELF_MODEL", "CallModel", "ElyigitBudget", "ElyigitExpert", "auction_likelihood", "call_likelihood", "support_from"]
