"""A sound rule-based Le Neuf player, from its view only.

Every trick is worth a point to whoever takes it, so the player wants tricks but
spends as little as it can for each one: it wins with the cheapest card that wins,
cashes cards that can no longer be beaten, ruffs cheaply when void, throws its
lowest losers, and exchanges a hand that is unlikely to make its quota.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from ..cards import Card, Suit, ace_high, deck_52
from ..games.neuf import Exchange, Keep, NeufView
from ..games.tricks import Play, parse_trump, winning_index
from .base import Decision, Reason


def estimate_tricks(hand: Iterable[Card], trump: Suit | None) -> float:
    """A rough count of the tricks a hand will take (honours, guarded honours, trump length)."""
    cards = list(hand)
    lengths = Counter(card.suit for card in cards)
    total = 0.0
    for card in cards:
        assert card.rank is not None
        length = lengths[card.suit]
        strength = ace_high(card.rank)
        if strength == 14:
            total += 1.0
        elif strength == 13:
            total += 0.75 if length >= 2 else 0.3
        elif strength == 12:
            total += 0.4 if length >= 3 else 0.1
        elif strength == 11 and card.suit == trump:
            total += 0.3 if length >= 4 else 0.0
    for suit, length in lengths.items():
        if suit == trump and length > 3:
            total += 0.6 * (length - 3)
        elif trump is None and length > 4:
            total += 0.4 * (length - 4)
    if trump is not None:
        # a short side suit with trumps to ruff it is worth something
        trumps = lengths[trump]
        for suit in Suit:
            if suit != trump and lengths[suit] <= 1 and trumps >= 2:
                total += 0.5 if lengths[suit] == 0 else 0.25
    return total


class NeufBasic:
    name = "basic"

    def __init__(self, exchange_below: float = 3.0) -> None:
        self.exchange_below = exchange_below

    def decide(self, view: NeufView) -> Decision:
        if view.phase == "exchange":
            return self._exchange(view)
        return self._play(view)

    # -- the exchange ----------------------------------------------------------------

    def _exchange(self, view: NeufView) -> Decision:
        trump = parse_trump(view.trump)
        estimate = estimate_tricks(view.hand, trump)
        # A hand someone else already gave up is worse than an unseen spare.
        threshold = self.exchange_below if view.centre_from == "spare" else self.exchange_below - 1.0
        if estimate < threshold:
            return Decision(Exchange(), Reason("hint.neuf.exchange_short", f"my hand looks like {estimate:.1f} tricks, short of the quota: exchange", tricks=round(estimate, 1)))
        return Decision(Keep(), Reason("hint.neuf.keep", f"my hand looks like {estimate:.1f} tricks: keep it", tricks=round(estimate, 1)))

    # -- card play -------------------------------------------------------------------

    def _play(self, view: NeufView) -> Decision:
        trump = parse_trump(view.trump)
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        seen = {Card.parse(code) for t in view.tricks_played for _, code in t.plays}
        if view.trick:
            seen |= {Card.parse(code) for _, code in view.trick.plays}
        held = set(view.hand)
        unseen = [c for c in deck_52() if c not in seen and c not in held]

        def is_master(card: Card) -> bool:
            return all(
                not (c.suit == card.suit and ace_high(c.rank) > ace_high(card.rank))  # type: ignore[arg-type]
                for c in unseen
            )

        plays = view.trick.plays if view.trick else ()
        if not plays:
            return self._lead(view, legal, trump, is_master, unseen)
        cards = [Card.parse(code) for _, code in plays]
        winning = [c for c in legal if winning_index(cards + [c], trump, ace_high) == len(cards)]
        last_to_play = len(plays) == len(view.seats) - 1
        if winning:
            if last_to_play:
                card = min(winning, key=lambda c: self._cost(c, trump))
                return Decision(Play(card), Reason("hint.last_cheapest_winner", f"last to play: {card.pretty} is the cheapest card that takes the trick", card=card))
            masters = [c for c in winning if is_master(c) and c.suit != trump]
            if masters:
                card = min(masters, key=lambda c: self._cost(c, trump))
                return Decision(Play(card), Reason("hint.unbeatable", f"{card.pretty} cannot be beaten in its suit: take the trick", card=card))
            if any(c.suit == trump for c in winning) and cards[0].suit != trump:
                card = min(winning, key=lambda c: self._cost(c, trump))
                return Decision(Play(card), Reason("hint.ruff", f"ruff with {card.pretty}", card=card))
            card = max(winning, key=lambda c: self._cost(c, trump))
            return Decision(Play(card), Reason("hint.play_high", f"play high with {card.pretty} to make the others pay for the trick", card=card))
        card = self._cheapest_loser(legal, trump)
        return Decision(Play(card), Reason("hint.throw", f"cannot take this trick: throw {card.pretty}", card=card))

    def _lead(
        self, view: NeufView, legal: list[Card], trump: Suit | None, is_master: Callable[[Card], bool], unseen: list[Card]
    ) -> Decision:
        masters = [c for c in legal if is_master(c)]
        trumps_out = [c for c in unseen if c.suit == trump]
        side_masters = [c for c in masters if c.suit != trump]
        if trump is not None and masters and any(c.suit == trump for c in masters) and trumps_out:
            card = max((c for c in masters if c.suit == trump), key=lambda c: ace_high(c.rank))  # type: ignore[arg-type]
            return Decision(Play(card), Reason("hint.draw_trumps_top", f"draw trumps with the top trump {card.pretty}", card=card))
        if side_masters:
            card = max(side_masters, key=lambda c: ace_high(c.rank))  # type: ignore[arg-type]
            return Decision(Play(card), Reason("hint.cash", f"cash {card.pretty}, the best card left in its suit", card=card))
        lengths = Counter(c.suit for c in legal)
        side = [c for c in legal if c.suit != trump] or legal
        longest = max(side, key=lambda c: (lengths[c.suit], -ace_high(c.rank)))  # type: ignore[arg-type]
        suit_cards = [c for c in side if c.suit == longest.suit]
        card = min(suit_cards, key=lambda c: ace_high(c.rank))  # type: ignore[arg-type]
        return Decision(Play(card), Reason("hint.lead_low", f"lead low from my longest suit with {card.pretty}", card=card))

    @staticmethod
    def _cost(card: Card, trump: Suit | None) -> int:
        return ace_high(card.rank) + (20 if card.suit == trump else 0)  # type: ignore[arg-type]

    @staticmethod
    def _cheapest_loser(legal: list[Card], trump: Suit | None) -> Card:
        lengths = Counter(c.suit for c in legal)
        # keep trumps; throw from the shortest side suit to make a void to ruff later
        return min(legal, key=lambda c: (c.suit == trump, ace_high(c.rank) >= 13, lengths[c.suit], ace_high(c.rank)))  # type: ignore[arg-type]
