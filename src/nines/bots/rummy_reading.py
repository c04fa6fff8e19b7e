"""Reading the rummy opponents: what their pick-ups, pass-overs, discards and set plays say about their hands.

A player who watches the table learns more than which cards are unseen.  Each public
move of the hand (:attr:`RummyView.moves`) shifts how likely every unseen card is to sit
in a given opponent's hand, and the ``ismcts`` and ``expert`` rummy players deal their
imagined opponent hands with those likelihoods as weights
(:mod:`nines.bots.rummy_worlds`):

* **a card picked up from the pile** is known to be in their hand (the plain reading
  already counts it); unless it was a wild, it was taken to build with, so the cards
  next to it in its suit are *more* likely in their hand;
* **a card passed over** (they drew from the stock with it on top of the pile) did not
  fit their hand, so the cards next to it in its suit are *less* likely there;
* **a card discarded**: the same, they kept nothing that card would have joined;
* **a suit they keep discarding** is a suit they are not collecting: every card of a suit
  among their last discards is a little less likely; a **suit they stopped discarding**
  loses that mark (and what the older discards said fades with each stock card they
  have drawn since, any of which may have been a neighbour);
* **a set they extended or laid**: a player who has opened plays the natural cards that
  fit the table (every computer player here does, and so do most people), so the
  natural cards that would extend a table set now are unlikely in an opened opponent's
  hand.

The weights are likelihood ratios (1 is "nothing known"); each fact's strength is a
named constant, and :meth:`OpponentReading.notes` says in words what was read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..cards import Card, Rank, Suit
from ..games.rummy import RummyView
from .rummy_plan import HIGH_ACE, LOW_ACE

PICKED_NEXT = 2.5
"""A card one rank from a card they picked up: this much more likely in their hand."""
PICKED_GAP = 1.6
"""Two ranks from it (one between: a wild or a draw fills the gap)."""
PASSED_NEXT = 0.3
"""One rank from a card they passed over or discarded: this likely, relative to an unread card."""
PASSED_GAP = 0.6
"""Two ranks from it."""
FADE = 0.85
"""What is left of a pass-over's or discard's evidence after each stock card they drew since."""
SUIT_DISCARDED = 0.8
"""Every card of a suit, per discard of that suit among their last :data:`RECENT_DISCARDS`."""
RECENT_DISCARDS = 3
FITS_TABLE = 0.25
"""A natural card that would extend a table set, in the hand of an opponent who has opened."""


def _spots(card: Card) -> tuple[int, ...]:
    assert card.rank is not None
    return (LOW_ACE, HIGH_ACE) if card.rank is Rank.ACE else (card.rank.value,)


def neighbours(card: Card, distance: int) -> list[Card]:
    """The cards of ``card``'s suit exactly ``distance`` run positions away (the ace at either end)."""
    assert card.suit is not None
    out: list[Card] = []
    for spot in _spots(card):
        for other in (spot - distance, spot + distance):
            if LOW_ACE <= other <= HIGH_ACE:
                rank = Rank.ACE if other in (LOW_ACE, HIGH_ACE) else Rank(other)
                near = Card(rank, card.suit)
                if near != card and near not in out:
                    out.append(near)
    return out


@dataclass
class SeatReading:
    """What one opponent's moves say: a weight per card (missing: 1) and the facts read."""

    weights: dict[Card, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def scale(self, cards: Iterable[Card], factor: float) -> None:
        for card in cards:
            self.weights[card] = self.weights.get(card, 1.0) * factor

    def weight(self, card: Card) -> float:
        return self.weights.get(card, 1.0)


class OpponentReading:
    """The likelihood weights of the unseen cards, opponent by opponent, read from the hand's public moves."""

    def __init__(self, view: RummyView, everything: bool = True) -> None:
        """``everything=False`` reads only the draws: the cards picked up and passed over."""
        assert view.seat is not None
        self.everything = everything
        wild_rank = Rank.parse(view.wild_rank)
        self.is_wild: Callable[[Card], bool] = lambda card: card.rank is None or card.rank is wild_rank
        self.seats: dict[str, SeatReading] = {s: SeatReading() for s in view.seats if s != view.seat}
        claimed = {Suit.parse(s.id) for s in view.table if s.kind == "run"}
        self._read_moves(view, claimed)
        if everything:
            self._read_table(view)

    def weight(self, seat: str, card: Card) -> float:
        return self.seats[seat].weight(card)

    def notes(self, seat: str) -> list[str]:
        return self.seats[seat].notes

    def _natural(self, card: Card | None) -> bool:
        return card is not None and not self.is_wild(card)

    def _read_moves(self, view: RummyView, claimed: set[Suit]) -> None:
        # the top of the pile each player saw when drawing: the last card discarded, or the
        # pile's top when the hand began
        top: Card | None = _first_top(view)
        draws_since: dict[str, int] = Counter()
        evidence: list[tuple[str, int, Card, str]] = []  # seat, stock draws before it, card, kind
        discards: dict[str, list[Card]] = {s: [] for s in self.seats}
        for move in view.moves:
            seat = move.seat
            words = move.action.split()
            verb = words[0]
            if verb == "draw":
                seen = top
                if move.drew is not None:
                    if seat in self.seats and self._natural(move.drew):
                        evidence.append((seat, draws_since[seat], move.drew, "picked"))
                else:
                    if seat in self.seats and self._natural(seen):
                        assert seen is not None
                        evidence.append((seat, draws_since[seat], seen, "passed"))
                    draws_since[seat] += 1
                top = None
            elif verb == "discard":
                card = Card.parse(words[1])
                top = card
                if seat in self.seats and self.everything:
                    discards[seat].append(card)
                    if self._natural(card):
                        evidence.append((seat, draws_since[seat], card, "discarded"))
        for seat, before, card, kind in evidence:
            assert card.suit is not None
            reading = self.seats[seat]
            if kind == "picked":
                if card.suit in claimed:
                    continue  # taken to extend the table's run, not to build one
                reading.scale(neighbours(card, 1), PICKED_NEXT)
                reading.scale(neighbours(card, 2), PICKED_GAP)
                reading.notes.append(f"took {card.code}: holds cards next to it")
                continue
            fade = FADE ** (draws_since[seat] - before)
            reading.scale(neighbours(card, 1), 1 - (1 - PASSED_NEXT) * fade)
            reading.scale(neighbours(card, 2), 1 - (1 - PASSED_GAP) * fade)
            if kind == "passed":
                reading.notes.append(f"passed over {card.code}")
        for seat, thrown in discards.items():
            recent = [c.suit for c in thrown[-RECENT_DISCARDS:] if self._natural(c)]
            for suit, n in Counter(recent).items():
                assert suit is not None
                self.seats[seat].scale([Card(rank, suit) for rank in Rank], SUIT_DISCARDED**n)
                self.seats[seat].notes.append(f"keeps discarding {suit.name.lower()}")

    def _read_table(self, view: RummyView) -> None:
        wants = [card for table_set in view.table for card in table_set.wants if not self.is_wild(card)]
        if not wants:
            return
        for seat in view.opened:
            if seat in self.seats:
                self.seats[seat].scale(wants, FITS_TABLE)
                self.seats[seat].notes.append("has opened: plays what fits the table")


def _first_top(view: RummyView) -> Card | None:
    """The top of the discard pile when the hand began: the moves undone from the pile as it is now.

    ``None`` when that cannot be told (a reshuffle has rebuilt the stock from the pile since).
    """
    pile = list(view.discard_pile)
    for move in reversed(view.moves):
        words = move.action.split()
        if words[0] == "discard":
            if not pile or pile[-1] != Card.parse(words[1]):
                return None  # the pile was shuffled into the stock under this card
            pile.pop()
        elif move.drew is not None:
            pile.append(move.drew)
    return pile[-1] if pile else None


__all__ = ["OpponentReading", "SeatReading", "neighbours"]
