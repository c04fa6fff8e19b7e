"""How Elyigit players bid, as the expert models them: to read the calls made, and to foresee those to come.

A sensible bidder values its hand with the basic player's valuation
(:func:`~nines.bots.elyigit_basic.estimate_tricks` in its best trump), counts on what its
partner's calls promise, and bids a level when its side looks good for it.  The expert
uses this model two ways:

* **reading** (:func:`auction_likelihood`): an imagined deal is weighed by how likely its
  hands were to make the calls that were made;
* **foreseeing** (:func:`auction_ends`): in an imagined deal, the calls still to come
  are those the model makes with that deal's hands, so a call of the expert's is judged
  by the contract the auction would end in, not only by the contract it names.

:class:`CallModel` holds how a kind of bidder departs from the basic player's rule (how
much slack it allows itself over the opponents and over its partner, how loosely it
follows the rule); ``SELF_MODEL`` and ``BASIC_MODEL`` are fitted to the expert's and the
basic player's own calls (``benchmarks/elyigit_call_fit.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card, Suit
from ..games.elyigit.options import SEATS, TRICKS_PER_DEAL, left_of, partner_of
from .elyigit_basic import (
    BID_SLACK,
    PARTNER_BID_CAP,
    PARTNER_PASSED,
    PARTNER_UNSEEN,
    SIDE_BASE,
    SIDE_SCALE,
    estimate_tricks,
)
from .tricksim import ACE_LOW_CARDS


def hand_strength(hand: Sequence[int]) -> float:
    """The basic player's estimate of a hand's tricks in its best trump (cards by code)."""
    cards: list[Card] = [ACE_LOW_CARDS[c] for c in hand]
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


ENDS_PRUNED = 0.02
"""Auctions less likely than this (given the calls made) are not followed further."""


def auction_ends(auction: Sequence[tuple[str, str]], opener: str, min_bid: int,
                 strength: Mapping[str, float], models: Mapping[str, CallModel],
                 pruned: float = ENDS_PRUNED) -> dict[tuple[str, int] | None, float]:
    """The contracts (declarer, bid) the auction may end in, each with its chance, the calls to come being the models'.

    ``auction`` is the calls made so far (the auction starts with ``opener``).  Each seat
    still to call, holding a hand of ``strength``, bids the lowest level open with the
    chance its :class:`CallModel` gives a bid there (:func:`call_likelihood`: its side
    looking good for the level less its slack, over its partner's contract the model's
    ``raise_``), and passes otherwise.  The auction closes as the rules say (three passes
    after a bid, a bid of nine; four passes and no bid: ``None``, nobody declares).
    Branches less likely than ``pruned`` are dropped, and the chances scaled to add up to one.
    """
    standing: int | None = None
    holder: str | None = None
    passes = 0
    first_bids: dict[str, int] = {}
    spoke: frozenset[str] = frozenset()
    seat = opener
    for caller, call in auction:
        spoke |= {caller}
        if call.startswith("bid"):
            standing = int(call.split()[1])
            holder = caller
            first_bids.setdefault(caller, standing)
            passes = 0
        else:
            passes += 1
        seat = left_of(caller)
    ends: dict[tuple[str, int] | None, float] = {}

    def follow(seat: str, standing: int | None, holder: str | None, passes: int,
               first_bids: dict[str, int], spoke: frozenset[str], chance: float) -> None:
        if standing is None:
            if passes >= len(SEATS):
                ends[None] = ends.get(None, 0.0) + chance
                return
        elif standing == TRICKS_PER_DEAL or passes >= len(SEATS) - 1:
            assert holder is not None
            ends[holder, standing] = ends.get((holder, standing), 0.0) + chance
            return
        partner = partner_of(seat)
        model = models[seat]
        level = min_bid if standing is None else standing + 1
        support = support_from([f"bid {first_bids[partner]}"] if partner in first_bids else ["pass"] if partner in spoke else [])
        slack = model.raise_ if holder == partner else model.over
        bids = call_likelihood(strength[seat], f"bid {level}", standing, min_bid, support, 0.0, model.spread, slack)
        spoke = spoke | {seat}
        nxt = left_of(seat)
        # the likelier call is always followed, so that some ending is always reached
        if chance * bids >= pruned or bids >= 0.5:
            follow(nxt, level, seat, 0, first_bids if seat in first_bids else {**first_bids, seat: level}, spoke, chance * bids)
        if chance * (1.0 - bids) >= pruned or bids < 0.5:
            follow(nxt, standing, holder, passes + 1, first_bids, spoke, chance * (1.0 - bids))

    follow(seat, standing, holder, passes, first_bids, spoke, 1.0)
    total = sum(ends.values())
    return {contract: chance / total for contract, chance in ends.items()}


__all__ = ["BASIC_MODEL", "CALL_FLOOR", "CALL_SPREAD", "SELF_MODEL", "CallModel", "auction_likelihood",
           "call_likelihood", "ENDS_PRUNED", "auction_ends", "hand_strength", "support_from"]
