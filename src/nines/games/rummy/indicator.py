"""The indicator and the wilds it chooses (seed 002, "Wild cards").

The card turned up after the deal is the indicator; the rank after it is wild (a 9
makes tens wild, a king makes aces wild, an ace makes twos wild).  Printed jokers are
always wild.  A card of the wild rank may still be played as its own printed card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import Card, Rank


@dataclass(frozen=True, slots=True)
class Wilds:
    """What is wild in one hand: printed jokers and every card of :attr:`rank`."""

    indicator: Card
    """The card turned up after the deal; out of play for the whole hand."""
    rank: Rank = field(init=False, compare=False)
    """The wild rank: the rank after the indicator's, king to ace, ace to two."""

    def __post_init__(self) -> None:
        if self.indicator.rank is None:
            raise ValueError("a printed joker cannot be the indicator: it is shuffled back and another card turned")
        object.__setattr__(self, "rank", self.indicator.rank.next)

    def is_wild(self, card: Card) -> bool:
        rank = card.rank
        return rank is None or rank is self.rank

    def describe(self) -> str:
        return f"the indicator {self.indicator.code} makes every {_plural(self.rank)} wild, as are the printed jokers"


_RANK_NAMES = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}


def rank_name(rank: Rank) -> str:
    return _RANK_NAMES[rank]


def _plural(rank: Rank) -> str:
    name = _RANK_NAMES[rank]
    return name + ("es" if name == "six" else "s")
