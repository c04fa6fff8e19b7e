"""Helpers shared by the Elyigit's Nines tests: cards from text, scripted deals, a reference rule."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from nines.cards import Card, Suit, ace_low, parse_cards
from nines.games.elyigit import ElyigitOptions, ElyigitState, PresetDeal

# Each seat holds one whole suit: N spades, E hearts, S diamonds, W clubs.  Every trick
# is then decided by who holds the trumps and the led suit, which makes outcomes easy
# to script.
ONE_SUIT_EACH = "N:98765432A.-.-.- -.98765432A.-.- -.-.98765432A.- -.-.-.98765432A"


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def rank(c: Card) -> int:
    assert c.rank is not None
    return ace_low(c.rank)


def reference_allowed(c: Card, hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None) -> bool:
    """Seed 003's rule restated card by card, independently of the engine's legal_plays."""
    if not trick:
        return True
    led = trick[0].suit
    if any(h.suit == led for h in hand):
        # If you hold the led suit you must play it ...
        if c.suit != led:
            return False
        # ... and if you can beat the best card of that suit on the table you must.
        best = max(rank(t) for t in trick if t.suit == led)
        can_beat = any(h.suit == led and rank(h) > best for h in hand)
        return not can_beat or rank(c) > best
    holds_trump = trump is not None and any(h.suit == trump for h in hand)
    if not holds_trump:
        return True  # neither led suit nor trump: anything
    # Void in the led suit you must trump ...
    if c.suit != trump:
        return False
    down = [rank(t) for t in trick if t.suit == trump]
    if not down:
        return True
    # ... and if a trump is already down you must beat it (when you can).
    can_over = any(h.suit == trump and rank(h) > max(down) for h in hand)
    return not can_over or rank(c) > max(down)


def scripted(
    calls: Iterable[str],
    options: ElyigitOptions | None = None,
    deal: str = ONE_SUIT_EACH,
    dealer: str = "W",
) -> ElyigitState:
    """A match whose first deal is ``deal`` (dealt by ``dealer``), with ``calls`` applied."""
    state = ElyigitState(options or ElyigitOptions(), seed=1, preset_deal=PresetDeal.parse(dealer, deal))
    for text in calls:
        state.apply(text)
    return state


def play_random_deal(state: ElyigitState, rng: random.Random) -> None:
    """Random legal actions until the deal in progress is over (or the match)."""
    number = state.deal.number
    while not state.is_over and state.deal.number == number:
        state.apply(rng.choice(state.legal_actions()))
