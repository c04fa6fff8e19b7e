"""The Elyigit's Nines oracle: the exact solver on the true deal (tournaments only; it sees every card)."""

from __future__ import annotations

from ..bots.base import Decision
from ..bots.expert_neuf import shared_solver
from ..cards import Suit, ace_low
from ..games.contract import GameState
from ..games.elyigit import Bid, ElyigitState, NameTrump, Pass
from ..games.elyigit.options import left_of, side_of
from ..games.tricks import Play
from ..solver import make_position


class ElyigitOracle:
    name = "oracle"
    sees_all_cards = True

    def _best_contract(self, state: ElyigitState, declarer: str) -> tuple[int, Suit | None]:
        """The most tricks ``declarer``'s side makes, and with which trump (the first leader as in the options)."""
        deal = state.deal
        solver = shared_solver()
        trumps: list[Suit | None] = [*Suit, None] if state.options.no_trumps else list(Suit)
        lead = state.options.first_leader
        leader = declarer if lead == "declarer" else left_of(deal.dealer) if lead == "left-of-dealer" else left_of(declarer)
        best: tuple[int, Suit | None] = (-1, None)
        for trump in trumps:
            position = make_position("elyigit", {s: list(deal.hands[s]) for s in state.seats}, trump, leader)
            tricks = solver.value(position, side_of(declarer))
            if tricks > best[0]:
                best = (tricks, trump)
        return best

    def decide_state(self, state: GameState, seat: str) -> Decision:
        assert isinstance(state, ElyigitState), f"this oracle plays ElyigitState, not {type(state).__name__}"
        deal = state.deal
        if deal.phase == "auction":
            auction = deal.auction
            if auction.high_bidder is not None and side_of(auction.high_bidder) == side_of(seat):
                return Decision(Pass(), "seeing every card: my partner holds the contract")
            tricks, trump = self._best_contract(state, seat)
            legal = [a for a in state.legal_actions() if isinstance(a, Bid)]
            if legal and tricks >= min(a.tricks for a in legal):
                bid = max(a.tricks for a in legal if a.tricks <= tricks)
                return Decision(Bid(bid), f"seeing every card: {tricks} tricks with {trump or 'no trumps'}")
            return Decision(Pass(), f"seeing every card: at most {tricks} tricks as declarer")
        if deal.phase == "trump":
            _, trump = self._best_contract(state, seat)
            return Decision(NameTrump(trump), "seeing every card: the trump that makes the most tricks")
        contract = deal.contract
        trick = deal.trick
        assert contract is not None and trick is not None
        mover = state.to_act
        assert mover is not None
        position = make_position(
            "elyigit", {s: list(deal.hands[s]) for s in state.seats}, contract.trump, trick.leader, trick.cards
        )
        scores = shared_solver().score_cards(position)
        side = side_of(mover)
        target = contract.targets()[side]
        have = deal.side_tricks()[side]
        best = max(
            scores,
            key=lambda c: (have + scores[c] >= target, scores[c], c.suit != contract.trump, -ace_low(c.rank)),  # type: ignore[arg-type]
        )
        return Decision(Play(best), f"seeing every card: {best.pretty} makes {scores[best]} more tricks")


__all__ = ["ElyigitOracle"]
