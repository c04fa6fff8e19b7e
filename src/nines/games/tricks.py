"""Trick-taking pieces shared by Le Neuf and Elyigit's Nines.

A trick is led by one seat and followed clockwise; the winner is the highest trump
played, or, when no trump was played, the highest card of the suit led.  How "highest"
is measured (ace high or ace low) is the game's ``strength`` function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, NotationError, Rank, Suit, parse_card
from .contract import IllegalAction

Strength = Callable[[Rank], int]


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """Play a card to the current trick: ``play 9H``."""

    card: Card
    kind: str = field(default="play", init=False, compare=False, repr=False)

    def __str__(self) -> str:
        return f"play {self.card.code}"

    def to_record(self) -> dict[str, Any]:
        return {"action": "play", "card": self.card.code}


def parse_play(words: Sequence[str]) -> Play:
    """Read the card of ``play 9H`` (words after the verb)."""
    if len(words) != 1:
        raise IllegalAction.of("syntax.play", "write a play as 'play' and one card, e.g. 'play 9H'")
    try:
        return Play(parse_card(words[0]))
    except NotationError as error:
        raise IllegalAction.of("syntax.card", str(error), text=words[0]) from None


def trump_code(trump: Suit | None) -> str:
    """``H`` for hearts, ``NT`` for no trumps."""
    return "NT" if trump is None else trump.value


def parse_trump(text: str) -> Suit | None:
    """Read a trump: a suit letter or symbol, or ``NT`` / ``N`` for no trumps."""
    if text.strip().upper() in ("NT", "N", "NOTRUMP", "NOTRUMPS", "NONE"):
        return None
    return Suit.parse(text)


@dataclass(slots=True)
class Trick:
    """One trick: who led and the cards played so far, in order."""

    leader: str
    plays: list[tuple[str, Card]] = field(default_factory=list)

    @property
    def led_suit(self) -> Suit | None:
        return self.plays[0][1].suit if self.plays else None

    @property
    def cards(self) -> list[Card]:
        return [card for _, card in self.plays]

    def winner(self, trump: Suit | None, strength: Strength) -> str:
        """The seat winning the trick as it stands (rule: highest trump, else highest of the led suit)."""
        return self.plays[winning_index(self.cards, trump, strength)][0]

    def to_record(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [[seat, card.code] for seat, card in self.plays]}


def winning_index(cards: Sequence[Card], trump: Suit | None, strength: Strength) -> int:
    """Index of the winning card among ``cards`` (the first was led)."""
    led = cards[0].suit
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit:
            if strength(card.rank) > strength(top.rank):  # type: ignore[arg-type]
                best = i
        elif card.suit == trump and top.suit != trump:
            best = i
        # any other card (off the led suit and not a trump) cannot win
    assert cards[best].suit in (led, trump)
    return best


def follow_suit(hand: Iterable[Card], trick: Trick) -> list[Card]:
    """The cards a hand may play under plain follow-suit rules (Le Neuf, whist, bridge)."""
    cards = list(hand)
    led = trick.led_suit
    if led is None:
        return cards
    same = [card for card in cards if card.suit == led]
    return same or cards


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick as anyone at the table sees it; ``winner`` once it is complete."""

    leader: str
    plays: tuple[tuple[str, str], ...]
    winner: str | None = None

    @classmethod
    def of(cls, trick: Trick, trump: Suit | None = None, strength: Strength | None = None) -> TrickView:
        """Pass ``strength`` (and the trump) for a finished trick to name its winner."""
        plays = tuple((seat, card.code) for seat, card in trick.plays)
        winner = trick.winner(trump, strength) if strength is not None and trick.plays else None
        return cls(trick.leader, plays, winner)
