"""Elyigit's Nines options: every rule the seed leaves open is a field, every variant a preset.

The defaults are the seed's game read literally (seed 003): bids from 5 to 9, the
auction closing on three passes after a bid, a deal nobody bids thrown in and dealt
again by the next dealer, suit trumps only, the defender on the declarer's left leading,
the compulsory rule in full (beat the led suit, trump, over-trump, under-trump, even
over a partner), and play stopping once a side has its target but never before the
third trick.  The match scoring is the project's own (the seed has none); RULES.md,
chapter "Elyigit's Nines", explains each option and why its default was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..contract import OptionsError
from .play_rules import PlayRules

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
"""The four fixed seats, clockwise; partners sit opposite."""

SIDES: tuple[str, ...] = ("NS", "EW")
"""The two partnerships."""

TRICKS_PER_DEAL = 9
"""Thirty-six cards, four hands of nine: nine tricks."""

MAX_TARGET = 500
"""The highest match target: ten times the standard fifty points, so a match always ends."""

MAX_TRICK_POINTS = 10
"""The most points an over- or undertrick may be worth."""

NoBid = Literal["redeal", "dealer"]
FirstLeader = Literal["left-of-declarer", "declarer", "left-of-dealer"]
FirstBidder = Literal["left-of-dealer", "dealer"]


def side_of(seat: str) -> str:
    """``NS`` or ``EW``: partners sit opposite."""
    return "NS" if seat in ("N", "S") else "EW"


def partner_of(seat: str) -> str:
    """The seat opposite."""
    return SEATS[(SEATS.index(seat) + 2) % 4]


def left_of(seat: str) -> str:
    """The next seat clockwise (bidding, dealing and play go this way)."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"


@dataclass(frozen=True)
class ElyigitOptions:
    """How a match of Elyigit's Nines is played."""

    # -- the auction --------------------------------------------------------------

    min_bid: int = 5
    """The lowest bid.  Five of nine tricks is a majority, so every contract is a claim
    to take most of the tricks; the highest bid is always nine (all of them)."""

    first_bidder: FirstBidder = "left-of-dealer"
    """Who speaks first in the auction: the player on the dealer's left, or the dealer."""

    no_bid: NoBid = "redeal"
    """When all four pass without a bid: ``redeal`` throws the deal in and the next
    dealer deals again (nobody scores); ``dealer`` gives the dealer a forced contract of
    :attr:`min_bid` (as in Batak)."""

    no_trumps: bool = False
    """Whether the declarer may name no trumps.  The seed says the declarer "names a
    trump suit", so the standard game has suit trumps only."""

    # -- the play -----------------------------------------------------------------

    first_leader: FirstLeader = "left-of-declarer"
    """Who leads to the first trick: the defender on the declarer's left (as at bridge,
    the other game with a dummy), the declarer (as in Batak), or the player on the
    dealer's left.  Later tricks are led by the winner of the trick before."""

    must_beat_led_suit: bool = True
    """Holding the led suit, a player must beat the best card of that suit on the table
    when they can, even if the trick has been trumped."""

    must_trump: bool = True
    """Void in the led suit, a player holding a trump must play one."""

    must_overtrump: bool = True
    """When trumping, a player must beat the best trump already on the table when they can."""

    must_undertrump: bool = True
    """A player who must trump but cannot beat a trump already down must still trump
    (under-trump); when false they may then play any card."""

    partner_exemption: bool = False
    """Belote's relaxation: while one's partner is winning the trick, one need only
    follow suit (any card of it), and a player void in the led suit may play any card.
    The seed says there is no exception for partner, so this is off."""

    # -- the end of the hand --------------------------------------------------------

    play_out: bool = False
    """Play all nine tricks.  When false, play stops at the end of the trick in which a
    side reaches its target, but never before :attr:`min_tricks` tricks."""

    min_tricks: int = 3
    """The seed's "the hand plays on to trick three": the fewest tricks played in a
    hand even when a side reaches its target sooner (a contract of 8 or 9 can be
    defeated in the first trick or two)."""

    # -- scoring (the project's own; the seed gives none) ---------------------------

    overtrick_points: int = 1
    """Points for each trick the declarers take beyond their bid (on top of the bid)."""

    undertrick_points: int = 1
    """Points the defenders score, on top of the bid, for each trick the declarers
    fell short of it (the tricks not played counted as the declarers')."""

    target: int = 50
    """The match ends after the deal in which a side reaches this many points (1 to 500)."""

    first_dealer: str | None = None
    """Seat that deals first; ``None`` draws it at random from the match seed."""

    def __post_init__(self) -> None:
        if not 1 <= self.min_bid <= TRICKS_PER_DEAL:
            raise OptionsError.of(
                "ely.options.min_bid", f"min_bid must be between 1 and {TRICKS_PER_DEAL} tricks, not {self.min_bid}",
                most=TRICKS_PER_DEAL, value=self.min_bid,
            )
        if self.no_bid not in ("redeal", "dealer"):
            raise OptionsError.of("options.choice", f"no_bid must be redeal or dealer, not {self.no_bid!r}",
                                  option="no_bid", allowed="redeal, dealer", value=repr(self.no_bid))
        if self.first_bidder not in ("left-of-dealer", "dealer"):
            raise OptionsError.of("options.choice", f"first_bidder must be left-of-dealer or dealer, not {self.first_bidder!r}",
                                  option="first_bidder", allowed="left-of-dealer, dealer", value=repr(self.first_bidder))
        if self.first_leader not in ("left-of-declarer", "declarer", "left-of-dealer"):
            raise OptionsError.of(
                "options.choice", f"first_leader must be left-of-declarer, declarer or left-of-dealer, not {self.first_leader!r}",
                option="first_leader", allowed="left-of-declarer, declarer, left-of-dealer", value=repr(self.first_leader),
            )
        if not self.must_trump and (self.must_overtrump or self.must_undertrump):
            raise OptionsError.of(
                "ely.options.must_trump",
                "must_overtrump and must_undertrump say how a player who must trump does it: "
                "with must_trump=false set them to false as well",
            )
        if not 1 <= self.min_tricks <= TRICKS_PER_DEAL:
            raise OptionsError.of(
                "ely.options.min_tricks", f"min_tricks must be between 1 and {TRICKS_PER_DEAL}, not {self.min_tricks}",
                most=TRICKS_PER_DEAL, value=self.min_tricks,
            )
        for name in ("overtrick_points", "undertrick_points"):
            if not 0 <= getattr(self, name) <= MAX_TRICK_POINTS:
                raise OptionsError.of(
                    "ely.options.points",
                    f"{name} must be from 0 to {MAX_TRICK_POINTS} points (it cannot be negative), not {getattr(self, name)}",
                    option=name, most=MAX_TRICK_POINTS, value=getattr(self, name),
                )
        if not 1 <= self.target <= MAX_TARGET:
            raise OptionsError.of(
                "ely.options.target", f"target must be from 1 to {MAX_TARGET} points, not {self.target}", most=MAX_TARGET, value=self.target
            )
        if self.first_dealer is not None:
            seat = str(self.first_dealer).upper()
            if seat not in SEATS:
                raise OptionsError.of(
                    "options.first_dealer", f"first_dealer must be one of {' '.join(SEATS)}, not {self.first_dealer!r}", seats=list(SEATS)
                )
            object.__setattr__(self, "first_dealer", seat)

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def sides(self) -> tuple[str, ...]:
        return SIDES

    @property
    def bids(self) -> range:
        """Every bid allowed, lowest first."""
        return range(self.min_bid, TRICKS_PER_DEAL + 1)

    @property
    def play_rules(self) -> PlayRules:
        """The compulsory-play clauses in force, for :func:`legal_plays`."""
        return PlayRules(
            must_beat_led_suit=self.must_beat_led_suit,
            must_trump=self.must_trump,
            must_overtrump=self.must_overtrump,
            must_undertrump=self.must_undertrump,
            partner_exemption=self.partner_exemption,
        )


_STANDARD = ElyigitOptions()

PRESETS: dict[str, ElyigitOptions] = {
    # seed 003 read literally
    "standard": _STANDARD,
    # every trick is played, so overtricks and undertricks are counted in full
    "play-out": replace(_STANDARD, play_out=True),
    # Batak's customs for what the seed leaves open: the declarer leads, and a deal
    # nobody bids is the dealer's forced contract
    "declarer-leads": replace(_STANDARD, first_leader="declarer"),
    "forced-dealer": replace(_STANDARD, no_bid="dealer"),
    # the declarer may name no trumps
    "no-trumps": replace(_STANDARD, no_trumps=True),
    # Belote: no obligation to overtake or to trump while one's partner is winning
    "partner-exemption": replace(_STANDARD, partner_exemption=True),
    # no obligation to under-trump: a player who cannot beat the trump down plays freely
    "no-undertrump": replace(_STANDARD, must_undertrump=False),
    # trump when void, but any trump will do
    "any-trump": replace(_STANDARD, must_overtrump=False),
    # whist and bridge: follow suit if you can, otherwise play anything
    "follow-suit": replace(
        _STANDARD, must_beat_led_suit=False, must_trump=False, must_overtrump=False, must_undertrump=False
    ),
    # the seed read to the letter: any number of tricks may open the auction
    "any-bid": replace(_STANDARD, min_bid=1),
    # the dealer speaks first in the auction
    "dealer-bids-first": replace(_STANDARD, first_bidder="dealer"),
    # play stops at the trick in which a side reaches its target, even the first
    "stop-at-target": replace(_STANDARD, min_tricks=1),
    # a contract scores its bid and nothing more: no over- or undertricks
    "bid-only": replace(_STANDARD, overtrick_points=0, undertrick_points=0),
    # a shorter match, to 25 points
    "short-match": replace(_STANDARD, target=25),
}
