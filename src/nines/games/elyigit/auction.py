"""The auction of Elyigit's Nines.

Seed 003: each player in turn passes or names a higher number of tricks than the
standing bid; a pass does not put a player out, they are asked again on the next
lap; the highest bidder becomes the declarer.  What the seed leaves open is settled
here (RULES.md, "The auction"):

* bids run from the options' ``min_bid`` (5 by default) to 9, all the tricks;
* the auction closes after three passes in a row following a bid, or at once on a
  bid of nine, which nobody can overcall;
* four passes with no bid close it with no declarer (the deal is thrown in, or the
  dealer plays a forced contract, as the options say).

Bids strictly rise and there are at most nine, so every auction ends: at most
``9 - min_bid + 1`` bids, each followed by at most three passes, after four passes
at the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contract import Action, Reason
from .actions import Bid, Pass
from .options import SEATS, TRICKS_PER_DEAL, left_of

__all__ = ["Auction"]


@dataclass
class Auction:
    """The calls of one deal's auction, in order, starting with ``opener``."""

    opener: str
    min_bid: int
    calls: list[tuple[str, Action]] = field(default_factory=list)

    @property
    def high_bid(self) -> int | None:
        """The standing bid (``None`` while nobody has bid)."""
        bids = [call.tricks for _, call in self.calls if isinstance(call, Bid)]
        return bids[-1] if bids else None

    @property
    def high_bidder(self) -> str | None:
        for seat, call in reversed(self.calls):
            if isinstance(call, Bid):
                return seat
        return None

    @property
    def passes_in_a_row(self) -> int:
        count = 0
        for _, call in reversed(self.calls):
            if not isinstance(call, Pass):
                break
            count += 1
        return count

    @property
    def is_closed(self) -> bool:
        """Three passes after a bid, a bid of nine, or four passes and no bid."""
        high = self.high_bid
        if high is None:
            return self.passes_in_a_row >= len(SEATS)
        return high == TRICKS_PER_DEAL or self.passes_in_a_row >= len(SEATS) - 1

    @property
    def to_call(self) -> str | None:
        """The seat whose call it is; calls go round clockwise, lap after lap."""
        if self.is_closed:
            return None
        seat = self.opener
        for _ in self.calls:
            seat = left_of(seat)
        return seat

    def legal_calls(self) -> list[Action]:
        """``pass`` and every bid above the standing one, in that order: bids low to high, then pass."""
        if self.is_closed:
            return []
        floor = self.min_bid if self.high_bid is None else self.high_bid + 1
        calls: list[Action] = [Bid(n) for n in range(floor, TRICKS_PER_DEAL + 1)]
        calls.append(Pass())
        return calls

    def why_not(self, call: Action) -> Reason:
        """Why ``call`` is not allowed now, and what is."""
        seat = self.to_call
        high = self.high_bid
        allowed = self._allowed_text()
        calls = [str(c) for c in self.legal_calls()]
        if isinstance(call, Bid):
            if call.tricks > TRICKS_PER_DEAL:
                return Reason(
                    "auction.too_high", f"there are only {TRICKS_PER_DEAL} tricks: a bid is at most {TRICKS_PER_DEAL}; {seat} may {allowed}",
                    most=TRICKS_PER_DEAL, seat=seat, actions=calls,
                )
            if high is None:
                return Reason(
                    "auction.too_low", f"the lowest bid is {self.min_bid} tricks; {seat} may {allowed}",
                    least=self.min_bid, seat=seat, actions=calls,
                )
            return Reason(
                "auction.not_higher",
                f"a bid must be higher than the standing bid of {high} ({self.high_bidder}); {seat} may {allowed}",
                high=high, high_seat=self.high_bidder, seat=seat, actions=calls,
            )
        return Reason("auction.now", f"it is the auction: {seat} may {allowed}", seat=seat, actions=calls)

    def _allowed_text(self) -> str:
        bids = [call.tricks for call in self.legal_calls() if isinstance(call, Bid)]
        if not bids:
            return "pass"
        span = str(bids[0]) if len(bids) == 1 else f"{bids[0]} to {bids[-1]}"
        return f"bid {span} ('bid {bids[0]}') or 'pass'"

    def history(self) -> tuple[tuple[str, str], ...]:
        """The calls as (seat, text) pairs, for views and records."""
        return tuple((seat, str(call)) for seat, call in self.calls)
