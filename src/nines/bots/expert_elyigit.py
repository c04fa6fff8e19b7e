"""The ``expert`` player of Elyigit's Nines: sampled deals, each solved exactly.

It works from its view only.  The unseen cards are dealt consistently with everything
the compulsory rule has revealed (:class:`~nines.bots.elyigit_worlds.ElyigitKnowledge`),
and in the auction each imagined deal is weighed by how well it explains the calls
made so far (a player who bid is likely to hold a good hand, one who passed a weaker
one), using the basic player's hand valuation as the model of a bidder.  Then:

* **the auction** (looking ahead, :meth:`ElyigitExpert._look_ahead`): in each sampled deal
  the auction is finished after every call this player may make, the calls still to come
  being those the model of a bidder makes with that deal's hands
  (:func:`~nines.bots.elyigit_calls.auction_ends`); each contract the auction may end in
  is solved exactly on the deal, and the call whose contracts are worth most to our side
  on average (made: the bid; defeated: the bid and one more to the defenders) is made.
  So a bid is judged by what it leads to (the opponents outbidding it where they are
  strong, the partner raising it), not only by the contract it names.  With
  ``lookahead=False`` it judges the contract it names alone: the contract with the best
  expected score is bid if it is worth more than letting the standing contract be played;
* **trumps**: the declarer, who cannot yet see the dummy, solves every trump in each
  sampled deal and names the one that makes the contract most often;
* **card play** (perfect-information Monte Carlo): every legal card is scored by the
  exact solver in each sampled deal, and the card that reaches the side's target (the
  contract, or the tricks that defeat it) in the most deals is played, more tricks
  breaking ties.  The declarer plays the dummy's cards the same way.

The budget is counted in deals, so a seeded match replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Suit, ace_low
from ..games.elyigit import Bid, ElyigitView, Pass
from ..games.elyigit.options import left_of, partner_of, side_of
from ..games.tricks import Play
from ..solver import make_position
from .base import Decision, Reason
from .elyigit_basic import best_trump
from .elyigit_calls import (
    BASIC_MODEL,
    CALL_SPREAD,
    SELF_MODEL,
    CallModel,
    auction_ends,
    auction_likelihood,
    call_likelihood,
    hand_strength,
    support_from,
)
from .elyigit_worlds import ElyigitKnowledge, code
from .expert_neuf import shared_solver
from .ismcts_elyigit import choose_call, choose_trump, contract_value, simulate_contracts, solved_exactly
from .sampling import resample
from .tricksim import ACE_LOW_CARDS, NO_TRUMP

SUITS_BY_INDEX = list(Suit)


@dataclass(frozen=True)
class ElyigitBudget:
    auction_worlds: int = 80
    trump_worlds: int = 60
    play_worlds: int = 60
    oversample: int = 3
    """Deals drawn per deal kept when weighing them by the auction."""


def _cards(codes: list[int]) -> list[Card]:
    return [ACE_LOW_CARDS[c] for c in codes]


def _call_model(model: CallModel | Sequence[Any] | None) -> CallModel | None:
    return model if model is None or isinstance(model, CallModel) else CallModel(*model)


class ElyigitExpert:
    name = "expert"

    def __init__(self, rng: random.Random, budget: ElyigitBudget | None = None, infer_auction: bool = True,
                 jumps: float = 0.5, standing_trump: str = "hand",
                 declarer_edge: tuple[float, float] = (0.35, 0.0),
                 their_made: tuple[float, float] = (1.0, 1.0), call_spread: float = CALL_SPREAD,
                 infer_partner: bool = True, uncontested_edge: tuple[float, float] | None = None,
                 partner_model: CallModel | Sequence[Any] | None = SELF_MODEL,
                 opponent_model: CallModel | Sequence[Any] | None = BASIC_MODEL,
                 lookahead: bool = True) -> None:
        self.rng = rng
        self.lookahead = lookahead
        """Whether a call is judged by the contract the auction ends in (:meth:`_look_ahead`), or only by its own contract."""
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
            strength = {seat: hand_strength(hands[seat] + played.get(seat, [])) for seat in callers}
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
        if self.lookahead:
            return self._look_ahead(view, worlds, solve, tricks)
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

    def _look_ahead(self, view: ElyigitView, worlds: list[dict[str, list[int]]],
                    solve: Callable[[dict[str, list[int]], int, str], int],
                    tricks: dict[Suit | None, list[int]]) -> Decision:
        """The call whose auction ends, in the imagined deals, in the contract worth most to our side.

        In each imagined deal the auction is finished after each call this player may
        make, every call still to come being the one its caller's model makes with that
        deal's hand (:func:`~nines.bots.elyigit_calls.auction_ends`; this player's own
        later calls too, with ``SELF_MODEL``).  Each contract it may end in is solved exactly
        on the deal, with the trump its declarer would name: this player the trump best
        for that contract over the deals it ends in (it names trumps before seeing the
        dummy), any other declarer the trump its own hand is best for.  A call is worth
        the mean over the deals, made or defeated counted as in :meth:`_contract_value`
        and :meth:`_their_value`; a deal thrown in is worth nothing.  So a bid is judged
        by what it leads to: the opponents outbidding it where they are strong, the
        partner raising it, a pass leaving the partner to bid.
        """
        me = view.seat
        assert me is not None
        mine = side_of(me)
        opener = view.auction[0][0] if view.auction else (view.to_act or me)
        ours_model = self.partner_model or SELF_MODEL
        theirs_model = self.opponent_model or BASIC_MODEL
        models = {seat: ours_model if side_of(seat) == mine else theirs_model for seat in view.seats}
        calls = [text for text in view.legal if text.startswith("bid")] + ["pass"]
        # each seat's best trump and its estimate, once a deal: the estimate is the hand's strength
        # (:func:`hand_strength`) unless no trumps may be named, and the trump is what it would name
        trumps = [{seat: best_trump(_cards(hands[seat]), view.no_trumps) for seat in view.seats} for hands in worlds]
        strengths = [{seat: hand_strength(hands[seat]) if view.no_trumps else found[seat][1] for seat in view.seats}
                     for hands, found in zip(worlds, trumps, strict=True)]
        named = [{seat: NO_TRUMP if suit is None else suit.index for seat, (suit, _) in found.items()} for found in trumps]
        ends = {call: [auction_ends([*view.auction, (me, call)], opener, view.min_bid, strength, models)
                       for strength in strengths] for call in calls}
        worth = self._worth(view, ends, worlds, solve, tricks, named)
        best = max(calls, key=lambda call: (worth[call], call == "pass"))
        return self._look_ahead_decision(view, best, worth, len(worlds))

    def _worth(self, view: ElyigitView, ends: dict[str, list[dict[tuple[str, int] | None, float]]],
               worlds: list[dict[str, list[int]]], solve: Callable[[dict[str, list[int]], int, str], int],
               tricks: dict[Suit | None, list[int]], named: list[dict[str, int]] | None = None) -> dict[str, float]:
        """What each call is worth to our side: the mean over the deals of the contracts its auction ends in.

        ``ends[call][i]`` is the chance of each contract (declarer, bid) the auction ends in
        after ``call`` in deal ``i`` (``None``: thrown in, worth nothing); ``tricks`` is what
        this player's side makes with it declaring, under each trump, in each deal;
        ``named[i][seat]`` the trump a seat's own hand is best for in deal ``i`` (found here when not given).
        """
        me = view.seat
        assert me is not None
        mine = side_of(me)
        edge = self._edge(view)
        solved: dict[tuple[int, str], int] = {}

        def tricks_of(i: int, declarer: str) -> int:
            """What ``declarer``'s side makes in deal ``i`` with the trump its own hand is best for (solved once)."""
            if (i, declarer) not in solved:
                if named is not None:
                    trump = named[i][declarer]
                else:
                    suit, _ = best_trump(_cards(worlds[i][declarer]), view.no_trumps)
                    trump = NO_TRUMP if suit is None else suit.index
                solved[i, declarer] = solve(worlds[i], trump, declarer)
            return solved[i, declarer]

        worth: dict[str, float] = {}
        for call, per_deal in ends.items():
            contracts: dict[tuple[str, int], list[tuple[int, float]]] = {}
            for i, chances in enumerate(per_deal):
                for contract, chance in chances.items():
                    if contract is not None:  # a deal thrown in is worth nothing
                        contracts.setdefault(contract, []).append((i, chance))
            total = 0.0
            for (declarer, bid), deals in contracts.items():
                if declarer == me:
                    # this player names trumps before it sees the dummy: one trump for all these deals
                    total += max(sum(chance * self._ours(tricks[suit][i], bid, edge) for i, chance in deals)
                                 for suit in tricks)
                elif side_of(declarer) == mine:
                    total += sum(chance * self._ours(tricks_of(i, declarer), bid, edge) for i, chance in deals)
                else:
                    total -= sum(chance * self._theirs(tricks_of(i, declarer), bid) for i, chance in deals)
            worth[call] = total / len(worlds)
        return worth

    @staticmethod
    def _look_ahead_decision(view: ElyigitView, best: str, worth: dict[str, float], deals: int) -> Decision:
        """The call, with its reason: what it and the best other call are worth to our side."""
        passing = worth["pass"]
        if best != "pass":
            bid = int(best.split()[1])
            return Decision(Bid(bid), Reason(
                "hint.elyigit.ahead_bid",
                f"bid {bid}: with the calls likely to follow, it is worth {worth[best]:+.1f} a deal to us in {deals} likely "
                f"deals solved exactly, passing {passing:+.1f}",
                bid=bid, worth_delta=round(worth[best], 1), passing_delta=round(passing, 1), deals=deals,
            ))
        bids = [call for call in worth if call != "pass"]
        if not bids:
            return Decision(Pass(), Reason("hint.elyigit.no_higher", "nobody can bid higher"))
        other = max(bids, key=lambda call: worth[call])
        bid = int(other.split()[1])
        return Decision(Pass(), Reason(
            "hint.elyigit.ahead_pass",
            f"pass: with the calls likely to follow, it is worth {passing:+.1f} a deal to us in {deals} likely deals "
            f"solved exactly, a bid of {bid} {worth[other]:+.1f}",
            bid=bid, worth_delta=round(passing, 1), other_delta=round(worth[other], 1), deals=deals,
        ))

    def _edge(self, view: ElyigitView) -> tuple[float, float]:
        """The declarer's edge for a contract of ours: ``uncontested_edge`` while no opponent has bid."""
        if self.uncontested_edge is not None:
            mine = side_of(view.seat or "")
            if not any(call.startswith("bid") and side_of(seat) != mine for seat, call in view.auction):
                return self.uncontested_edge  # type: ignore[return-value]
        return self.declarer_edge  # type: ignore[return-value]

    def _ours(self, tricks: int, bid: int, edge: tuple[float, float]) -> float:
        """Expected score of our contract of ``bid`` in one deal the solver gives it ``tricks`` (:meth:`_contract_value`)."""
        one, two = edge
        made = 1.0 if tricks >= bid else one if tricks == bid - 1 else two if tricks == bid - 2 else 0.0
        return made * bid - (1 - made) * (bid + 1)

    def _theirs(self, tricks: int, bid: int) -> float:
        """Expected score of the opponents' contract of ``bid`` (for them) in one deal (:meth:`_their_value`)."""
        exact, spare = self.their_made
        made = exact if tricks == bid else spare if tricks == bid + 1 else 1.0 if tricks > bid else 0.0
        return made * bid - (1 - made) * (bid + 1)

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
