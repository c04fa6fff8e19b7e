"""A fast internal form of trick play, for players that simulate thousands of deals.

Search players (``ismcts``, ``expert``) play out sampled deals many times per move;
cloning full :class:`~nines.games.contract.GameState` objects for that is far too slow.
Here a card is a small int, ``suit * 16 + strength`` (suit in PBN order, strength
from the game's rank order: ace high 2..14 in Le Neuf, ace low 1..9 in Elyigit's
Nines), so that two cards of one suit compare as ints and ``card >> 4`` is the suit.

The rules are the engine's rules, restated on ints: :func:`follow_legal` is Le Neuf's
follow-suit rule, :func:`compulsory_legal` Elyigit's compulsory overtaking and ruffing
(with the same variant switches as :class:`~nines.games.elyigit.play_rules.PlayRules`).
``tests/bots/test_tricksim.py`` plays random deals through the engine and through this
module side by side and checks they agree on every legal move and every trick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import Card, Rank, Suit, ace_high, ace_low

NO_TRUMP = -1

Strength = Callable[[Rank], int]
LegalFn = Callable[[list[int], list[int], int], list[int]]


def encode(card: Card, strength: Strength) -> int:
    """A card as ``suit * 16 + strength``."""
    assert card.rank is not None and card.suit is not None
    return card.suit.index * 16 + strength(card.rank)


def decoder(strength: Strength) -> dict[int, Card]:
    """The inverse of :func:`encode` for every card of the 52-card deck."""
    table: dict[int, Card] = {}
    for suit in Suit:
        for rank in Rank:
            table[suit.index * 16 + strength(rank)] = Card(rank, suit)
    return table


ACE_HIGH_CARDS = decoder(ace_high)
ACE_LOW_CARDS = decoder(ace_low)


def suit_of(code: int) -> int:
    return code >> 4


def trump_index(trump: str | None) -> int:
    """``NO_TRUMP`` for ``NT``/``None``, else the suit's PBN index."""
    if trump is None or trump.upper() == "NT":
        return NO_TRUMP
    return Suit.parse(trump).index


# -- the rules on ints ---------------------------------------------------------------


def winner_index(trick: Sequence[int], trump: int) -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led."""
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card >> 4 == top >> 4:
            if card > top:
                best, top = i, card
        elif card >> 4 == trump:
            best, top = i, card
    return best


def follow_legal(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """Le Neuf: follow the suit led if you can, otherwise play anything."""
    if not trick:
        return hand
    led = trick[0] >> 4
    same = [c for c in hand if c >> 4 == led]
    return same or hand


@dataclass(frozen=True, slots=True)
class Compulsory:
    """Elyigit's compulsory rule with its variant switches (see ``PlayRules``)."""

    must_beat_led_suit: bool = True
    must_trump: bool = True
    must_overtrump: bool = True
    must_undertrump: bool = True
    partner_exemption: bool = False

    def legal(self, hand: list[int], trick: list[int], trump: int) -> list[int]:
        if not trick:
            return hand
        led = trick[0] >> 4
        exempt = (
            self.partner_exemption and len(trick) >= 2 and winner_index(trick, trump) == len(trick) - 2
        )
        same = [c for c in hand if c >> 4 == led]
        if same:
            if self.must_beat_led_suit and not exempt:
                best = max(c for c in trick if c >> 4 == led)
                higher = [c for c in same if c > best]
                if higher:
                    return higher
            return same
        if trump == NO_TRUMP or not self.must_trump or exempt:
            return hand
        trumps = [c for c in hand if c >> 4 == trump]
        if not trumps:
            return hand
        down = [c for c in trick if c >> 4 == trump]
        if not down:
            return trumps
        top = max(down)
        over = [c for c in trumps if c > top]
        if over:
            return over if self.must_overtrump else trumps
        return trumps if self.must_undertrump else hand


STRICT_COMPULSORY = Compulsory()


# -- a position that can be played forward quickly ------------------------------------


@dataclass(slots=True)
class TrickPosition:
    """Hands (by seat index, clockwise), the trick in progress and the tricks won.

    ``stop`` (optional) says, after each trick, whether play ends there (Elyigit's
    Nines stops once a side has its target); otherwise play ends when the hands are empty.
    """

    hands: list[list[int]]
    trump: int
    leader: int
    trick: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    tricks_played: int = 0
    over: bool = False

    def __post_init__(self) -> None:
        if not self.won:
            self.won = [0] * len(self.hands)

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    def copy(self) -> TrickPosition:
        return TrickPosition(
            [list(h) for h in self.hands], self.trump, self.leader, list(self.trick), list(self.won),
            self.tricks_played, self.over,
        )


class TrickRules:
    """Legal plays and the end of play for one trick game, on :class:`TrickPosition`."""

    def __init__(self, legal: LegalFn, stop: Callable[[TrickPosition], bool] | None = None) -> None:
        self.legal_fn = legal
        self.stop = stop

    def legal(self, pos: TrickPosition) -> list[int]:
        return self.legal_fn(pos.hands[pos.to_act], pos.trick, pos.trump)

    def play(self, pos: TrickPosition, card: int) -> None:
        """Play ``card`` (assumed legal) for the seat to act; finish the trick if complete."""
        seat = (pos.leader + len(pos.trick)) % len(pos.hands)
        pos.hands[seat].remove(card)
        pos.trick.append(card)
        if len(pos.trick) == len(pos.hands):
            self._finish_trick(pos)

    def _finish_trick(self, pos: TrickPosition) -> None:
        winner = (pos.leader + winner_index(pos.trick, pos.trump)) % len(pos.hands)
        pos.won[winner] += 1
        pos.tricks_played += 1
        pos.leader = winner
        pos.trick = []
        if not pos.hands[winner] or (self.stop is not None and self.stop(pos)):
            pos.over = True

    def playout(self, pos: TrickPosition, rng: random.Random) -> None:
        """Play uniformly random legal cards until the deal ends."""
        legal_fn = self.legal_fn
        rand = rng.random
        hands = pos.hands
        n = len(hands)
        while not pos.over:
            seat = (pos.leader + len(pos.trick)) % n
            hand = hands[seat]
            options = legal_fn(hand, pos.trick, pos.trump)
            card = options[int(rand() * len(options))]
            hand.remove(card)
            pos.trick.append(card)
            if len(pos.trick) == n:
                self._finish_trick(pos)

    def playout_policy(self, pos: TrickPosition, choose: Callable[[TrickPosition, list[int]], int]) -> None:
        """Play to the end with ``choose(pos, legal)`` picking each card."""
        while not pos.over:
            self.play(pos, choose(pos, self.legal(pos)))


FOLLOW_SUIT = TrickRules(follow_legal)


def encode_hand(cards: Iterable[Card], strength: Strength) -> list[int]:
    return [encode(card, strength) for card in cards]


def decode_card(code: int, strength: Strength) -> Card:
    return (ACE_HIGH_CARDS if strength is ace_high else ACE_LOW_CARDS)[code]
