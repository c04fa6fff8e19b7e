"""The contract, when the hand stops, and what it scores.

Seed 003: the declaring side needs its contract; the defenders need the number of
tricks that makes it unreachable, ``10 - bid`` of the nine (a bid of nine leaves them
needing one).  The two targets add up to ten, one more than there are tricks, so
exactly one side reaches its target in a hand played out.

When play stops (RULES.md, "The end of the hand"): "one of them usually gets there
well before trick nine, and the hand plays on to trick three" -- play stops at the
end of the trick in which a side reaches its target, but never before the third
trick has been played (options ``min_tricks``; ``play_out`` plays all nine).  Tricks
not played belong to nobody.

The scoring is the project's own, the seed having none (RULES.md, "Scoring"): a
contract made scores its bid for the declaring side, plus ``overtrick_points`` for
each trick beyond it; a contract defeated scores its bid for the defenders, plus
``undertrick_points`` for each trick the declarers were short -- counting the tricks
not played as theirs, so that stopping early neither inflates nor hides a result.
Only one side scores in a deal and every deal played scores at least the lowest
bid, so a match to ``target`` points always ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Suit
from ..tricks import trump_code
from .options import TRICKS_PER_DEAL, ElyigitOptions, other_side, partner_of, side_of

__all__ = ["Contract", "defenders_target", "target_reached", "play_stops", "score_deal"]


@dataclass(frozen=True)
class Contract:
    """What the auction and the naming of trumps settled for one deal."""

    bid: int
    declarer: str
    trump: Suit | None
    forced: bool = False
    """A forced contract for the dealer when nobody bid (option ``no_bid=dealer``)."""

    @property
    def dummy(self) -> str:
        """The declarer's partner, whose hand lies face up and is played by the declarer."""
        return partner_of(self.declarer)

    @property
    def declaring_side(self) -> str:
        return side_of(self.declarer)

    @property
    def defending_side(self) -> str:
        return other_side(self.declaring_side)

    def targets(self) -> dict[str, int]:
        """Tricks each side needs: the bid, and what makes the bid unreachable."""
        return {self.declaring_side: self.bid, self.defending_side: defenders_target(self.bid)}

    def to_record(self) -> dict[str, Any]:
        return {
            "bid": self.bid,
            "declarer": self.declarer,
            "dummy": self.dummy,
            "trump": trump_code(self.trump),
            "forced": self.forced,
        }


def defenders_target(bid: int) -> int:
    """The tricks that make a bid unreachable: ``10 - bid`` of nine."""
    return TRICKS_PER_DEAL + 1 - bid


def target_reached(contract: Contract, side_tricks: dict[str, int]) -> str | None:
    """The side that has reached its target, if either has (never both: the targets add up to ten)."""
    for side, target in contract.targets().items():
        if side_tricks[side] >= target:
            return side
    return None


def play_stops(contract: Contract, side_tricks: dict[str, int], options: ElyigitOptions) -> bool:
    """Whether the hand is over after the tricks counted in ``side_tricks``."""
    played = sum(side_tricks.values())
    if played >= TRICKS_PER_DEAL:
        return True
    if options.play_out:
        return False
    # A side has its target and at least min_tricks (three) tricks have been played.
    return target_reached(contract, side_tricks) is not None and played >= options.min_tricks


def score_deal(contract: Contract, side_tricks: dict[str, int], options: ElyigitOptions) -> dict[str, Any]:
    """The result of a finished hand: whether the contract was made and the points each side scores.

    Over- and undertricks count only what the play proved: tricks not played are
    counted for the side that did *not* reach its target, so stopping early never
    inflates a result (with all nine tricks played they are the plain counts).
    """
    declaring, defending = contract.declaring_side, contract.defending_side
    taken = side_tricks[declaring]
    unplayed = TRICKS_PER_DEAL - sum(side_tricks.values())
    made = taken >= contract.bid
    change = {declaring: 0, defending: 0}
    if made:
        # Contract made: the bid, and a bonus for each trick beyond it.
        overtricks, undertricks = taken - contract.bid, 0
        change[declaring] = contract.bid + options.overtrick_points * overtricks
    else:
        # Contract defeated: the defenders score the bid, and a bonus for each trick
        # the declarers fell short even had they taken every trick not played.
        overtricks, undertricks = 0, contract.bid - (taken + unplayed)
        change[defending] = contract.bid + options.undertrick_points * undertricks
    return {
        "made": made,
        "overtricks": overtricks,
        "undertricks": undertricks,
        "score_change": {side: change[side] for side in ("NS", "EW")},
    }
