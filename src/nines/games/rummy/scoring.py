"""Closing a hand and the session's running totals.

Seed 002 says only that the player who goes out scores 0, that hands add to running
totals and that the lowest total wins (ties share the win).  What the others score is
the project's choice (RULES.md, "Nines rummy", "Scoring"), every number an option:

* a card left in hand costs its pips (two to ten), ``court_points`` for a jack, queen
  or king, ``ace_points`` for an ace, ``wild_points`` for any wild (a printed joker
  or a card of this hand's wild rank, a wild held after a swap included);
* a player who never opened this hand scores ``unopened_penalty`` instead of counting
  (``None``: they count their cards like everyone else);
* when the hand ends because the stock ran out once too often, nobody went out and
  every player scores the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ...cards import Card, Rank
from .indicator import Wilds
from .options import RummyOptions

COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


def card_points(card: Card, wilds: Wilds, options: RummyOptions) -> int:
    """What one card left in hand costs."""
    if wilds.is_wild(card):
        return options.wild_points
    assert card.rank is not None
    if card.rank is Rank.ACE:
        return options.ace_points
    if card.rank in COURTS:
        return options.court_points
    return card.rank.value


def hand_points(cards: Iterable[Card], wilds: Wilds, options: RummyOptions, opened: bool) -> int:
    """A player's score for the hand: 0 for no cards, the flat penalty if never opened, else the count."""
    held = list(cards)
    if not held:
        return 0
    if not opened and options.unopened_penalty is not None:
        return options.unopened_penalty
    return sum(card_points(card, wilds, options) for card in held)


def score_hand(
    hands: Mapping[str, Sequence[Card]],
    opened: Iterable[str],
    wilds: Wilds,
    options: RummyOptions,
) -> dict[str, int]:
    """Every seat's points for the hand just closed (the player who went out holds nothing: 0)."""
    opened_seats = set(opened)
    return {seat: hand_points(cards, wilds, options, seat in opened_seats) for seat, cards in hands.items()}


def session_winners(totals: Mapping[str, int]) -> list[str]:
    """Lowest running total wins; players tied for the lowest share the win."""
    low = min(totals.values())
    return [seat for seat, total in totals.items() if total == low]
