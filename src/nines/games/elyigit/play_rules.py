"""The compulsory play rule of Elyigit's Nines, as small pure functions.

Seed 003, read literally (RULES.md, "Playing a card"):

1. **Follow and beat.** Holding the led suit you must play it, and if you can beat the
   best card *of that suit* on the table you must -- even when the trick has already
   been trumped, so beating it no longer wins anything.
2. **Trump.** Void in the led suit, you must play a trump.
3. **Over-trump.** If a trump is already down you must beat it when you can.
4. **Under-trump.** If you cannot beat it you must still trump.
5. **Free play.** Only with neither the led suit nor a trump may you play anything --
   and such a card cannot win the trick.

There is no exception for a partner (or for the dummy): if the only card that beats
the trick is yours and your partner is winning it, you take it off them.  The
variants of :class:`PlayRules` relax clauses 1-4 as other games of the family do.

:func:`legal_plays` is the reference the exact solver (``nines.solver``) is tested
against: it depends on nothing but its arguments.  Ranks run ace (low) to nine (high).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...cards import Card, Suit, ace_low, format_cards, sort_hand
from ..contract import Reason
from ..tricks import winning_index

__all__ = ["PlayRules", "STRICT", "legal_plays", "why_not_playable", "trick_winner", "suit_name"]


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Which clauses of the compulsory rule are in force (all of them in the seed's game)."""

    must_beat_led_suit: bool = True
    """Clause 1: holding the led suit, beat its best card on the table when you can."""
    must_trump: bool = True
    """Clause 2: void in the led suit, play a trump."""
    must_overtrump: bool = True
    """Clause 3: when trumping, beat a trump already down when you can."""
    must_undertrump: bool = True
    """Clause 4: a player who must trump and cannot beat the trump down still trumps."""
    partner_exemption: bool = False
    """Belote's relaxation: while your partner is winning, only follow suit (void: anything)."""


STRICT = PlayRules()
"""The seed's rule: every clause, no exception for partner."""

_SUIT_NAMES = {Suit.SPADES: "spade", Suit.HEARTS: "heart", Suit.DIAMONDS: "diamond", Suit.CLUBS: "club"}


def suit_name(suit: Suit, plural: bool = False) -> str:
    return _SUIT_NAMES[suit] + ("s" if plural else "")


def _show(cards: Iterable[Card]) -> str:
    """Cards as a player holds them here: by suit, nine down to ace."""
    return format_cards(sort_hand(cards, ace_low))


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in sort_hand(cards, ace_low)]


def _strength(card: Card) -> int:
    assert card.rank is not None
    return ace_low(card.rank)


def trick_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """Index of the card winning ``trick`` so far (highest trump, else highest of the led suit; ace low)."""
    return winning_index(trick, trump, ace_low)


def _best_of(trick: Iterable[Card], suit: Suit | None) -> Card | None:
    cards = [card for card in trick if card.suit == suit]
    return max(cards, key=_strength) if cards else None


def _partner_winning(trick: Sequence[Card], trump: Suit | None) -> bool:
    """Four players, partners opposite: the partner's card is two places before the player's."""
    return len(trick) >= 2 and trick_winner(trick, trump) == len(trick) - 2


def legal_plays(
    hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None, rules: PlayRules = STRICT
) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards in play order, led first).

    ``trump`` is ``None`` for no trumps.  The result is sorted and without repeats.
    """
    cards = sorted(set(hand))
    if not trick:
        return cards  # the leader may lead anything
    led = trick[0].suit
    exempt = rules.partner_exemption and _partner_winning(trick, trump)
    same = [card for card in cards if card.suit == led]
    if same:
        # Clause 1: follow suit, and beat the best card of the led suit when you can.
        if rules.must_beat_led_suit and not exempt:
            best = _best_of(trick, led)
            assert best is not None  # the led card itself is of the led suit
            higher = [card for card in same if _strength(card) > _strength(best)]
            if higher:
                return higher
        return same
    trumps = [card for card in cards if trump is not None and card.suit == trump]
    # Clause 5: with neither the led suit nor a trump, play anything.
    if not trumps or not rules.must_trump or exempt:
        return cards
    top_trump = _best_of(trick, trump)
    if top_trump is None:
        return trumps  # clause 2: trump
    over = [card for card in trumps if _strength(card) > _strength(top_trump)]
    if over:
        return over if rules.must_overtrump else trumps  # clause 3: over-trump
    return trumps if rules.must_undertrump else cards  # clause 4: under-trump


def why_not_playable(
    card: Card, hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None, rules: PlayRules = STRICT
) -> Reason | None:
    """Why ``card`` may not be played, in words that teach the rule; ``None`` if it may.

    The sentence speaks to the player ("you hold ..."); callers name the seat.
    """
    cards = sorted(set(hand))
    allowed = legal_plays(cards, trick, trump, rules)
    if card in allowed:
        return None
    playable = _show(allowed)
    cards_ok = _codes(allowed)
    if card not in cards:
        return Reason(
            "play.not_in_hand", f"{card.code} is not in the hand; playable: {playable}", card=card.code, cards=cards_ok
        )
    led = trick[0].suit
    assert led is not None
    same = [c for c in cards if c.suit == led]
    if same:
        if card.suit != led:
            # Clause 1: follow suit (and beat the best card of the led suit if you can).
            if len(allowed) < len(same):
                return Reason(
                    "play.follow_suit_beat",
                    f"{suit_name(led, True)} were led and you hold {_show(same)}: you must follow suit (playable: {playable})",
                    suit=led.value, held_cards=_codes(same), cards=cards_ok,
                )
            return Reason(
                "play.follow_suit", f"{suit_name(led, True)} were led and you hold {_show(same)}: you must follow suit",
                suit=led.value, held_cards=_codes(same),
            )
        best = _best_of(trick, led)
        assert best is not None
        trumped = trump is not None and led != trump and any(c.suit == trump for c in trick)
        return Reason(
            "play.must_beat_trumped" if trumped else "play.must_beat",
            f"you hold a higher {suit_name(led)} ({playable}) than the {best.code} on the table: "
            f"you must beat it{' even though the trick has been trumped' if trumped else ''}",
            suit=led.value, cards=cards_ok, best_card=best.code,
        )
    assert trump is not None
    trumps = [c for c in cards if c.suit == trump]
    top_trump = _best_of(trick, trump)
    no_led = f"you have no {suit_name(led, True)}"
    must_trump = Reason(
        "play.must_trump", f"{no_led}, so you must trump: play one of your {suit_name(trump, True)} ({playable})",
        suit=led.value, trump_suit=trump.value, cards=cards_ok,
    )
    if top_trump is None:
        return must_trump  # clause 2
    over = [c for c in trumps if _strength(c) > _strength(top_trump)]
    if over and rules.must_overtrump:
        return Reason(
            "play.must_overtrump",
            f"{no_led} and the {top_trump.code} has trumped: you hold a higher trump ({playable}), so you must beat it",
            suit=led.value, top_card=top_trump.code, cards=cards_ok,
        )
    if over:
        return must_trump
    return Reason(
        "play.must_undertrump",
        f"{no_led} and cannot beat the {top_trump.code}, but you hold "
        f"{suit_name(trump, True)}: you must still trump (under-trump) with one of {playable}",
        suit=led.value, trump_suit=trump.value, top_card=top_trump.code, cards=cards_ok,
    )
