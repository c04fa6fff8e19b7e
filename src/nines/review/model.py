"""What a review finds, and its JSON form (the contract in docs/review.md).

``best`` is what the seat's side (or the seat alone, in the paranoid forms) could still
take with its best card, ``got`` what it can still take after the card it played, and
``cost = best - got`` -- never negative.  Tricks are counted to the end of the deal as if
every trick were played out, with every hand known (the double-dummy measure), also where
a deal stopped early.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..games.contract import Reason

__all__ = [
    "MEASURE",
    "ContractReview",
    "DealReview",
    "DiscardReview",
    "ExchangeReview",
    "PlayReview",
    "RecordReview",
    "SeatTotal",
]

MEASURE = (
    "tricks still to take, counted to the end of the deal as if every trick were played out, "
    "with every hand known (double dummy)"
)
"""How the values are counted, said wherever they are shown."""

OPINION = (
    "the expert computer player's opinion from what the seat could see, not a proof: "
    "rummy has no exact solver"
)
"""How a rummy discard review is to be read, said wherever it is shown."""


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


@dataclass(frozen=True)
class PlayReview:
    """One card played, scored from the position just before it."""

    trick: int
    seat: str
    by: str
    """who chose the card (the declarer plays the dummy's in Elyigit's Nines)"""
    card: Card
    scores: Mapping[Card, int] | None
    """every legal card and the tricks it leads to; ``None`` when the position went unscored"""
    unscored: str | None = None
    """why the card was not scored (the node budget, rules the solver does not play)"""

    @property
    def scored(self) -> bool:
        return self.scores is not None

    @property
    def best(self) -> int | None:
        return max(self.scores.values()) if self.scores else None

    @property
    def got(self) -> int | None:
        return self.scores[self.card] if self.scores else None

    @property
    def cost(self) -> int | None:
        best, got = self.best, self.got
        return None if best is None or got is None else best - got

    @property
    def best_cards(self) -> tuple[Card, ...]:
        if not self.scores:
            return ()
        best = self.best
        return tuple(sorted(card for card, value in self.scores.items() if value == best))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "trick": self.trick,
            "seat": self.seat,
            "card": self.card.code,
            "best": self.best,
            "got": self.got,
            "cost": self.cost,
            "best_cards": _codes(self.best_cards),
            "by": self.by,
            "scores": None if self.scores is None else {card.code: value for card, value in self.scores.items()},
        }
        if self.unscored is not None:
            out["unscored"] = self.unscored
        return out


@dataclass(frozen=True)
class SeatTotal:
    """One player's cards in a deal: how many they chose, how many cost tricks, the tricks lost."""

    cards: int = 0
    errors: int = 0
    cost: int = 0
    unscored: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"cost": self.cost, "errors": self.errors, "cards": self.cards, "unscored": self.unscored}


@dataclass(frozen=True)
class ExchangeReview:
    """A Le Neuf exchange decision: the seat's value with the hand it kept against the one it refused."""

    seat: str
    choice: str
    value: int | None
    """the seat's tricks (paranoid value) at the first lead, as it decided"""
    other_choice: str
    other_value: int | None
    """the same had it decided the other way"""

    @property
    def cost(self) -> int | None:
        if self.value is None or self.other_value is None:
            return None
        return max(0, self.other_value - self.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "choice": self.choice,
            "value": self.value,
            "other_choice": self.other_choice,
            "other_value": self.other_value,
            "cost": self.cost,
        }


@dataclass(frozen=True)
class ContractReview:
    """An Elyigit contract: the declaring side's tricks under each trump it could name, against the bid."""

    declarer: str
    side: str
    bid: int
    trump: str
    """the trump named (``S``..``C``, ``NT``)"""
    by_trump: Mapping[str, int | None]

    @property
    def best_trumps(self) -> tuple[str, ...]:
        known = {trump: value for trump, value in self.by_trump.items() if value is not None}
        if not known:
            return ()
        top = max(known.values())
        return tuple(trump for trump, value in known.items() if value == top)

    @property
    def made_with_best(self) -> bool | None:
        """Whether the bid can be made with the best trump, every card known."""
        top = [self.by_trump[t] for t in self.best_trumps]
        return None if not top else bool(top[0] is not None and top[0] >= self.bid)

    def to_json(self) -> dict[str, Any]:
        return {
            "declarer": self.declarer,
            "side": self.side,
            "bid": self.bid,
            "trump": self.trump,
            "by_trump": dict(self.by_trump),
            "best_trumps": list(self.best_trumps),
            "value": self.by_trump.get(self.trump),
        }


@dataclass(frozen=True)
class DiscardReview:
    """A rummy discard and the card the expert player would have thrown from there."""

    turn: int
    seat: str
    card: Card
    expert: Card | None
    """the expert's discard (``None``: it would have gone out or ended its turn without one)"""
    expert_action: str
    """what the expert did first from that position, in the game's action words"""

    @property
    def same(self) -> bool:
        return self.expert == self.card

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "card": self.card.code,
            "expert": None if self.expert is None else self.expert.code,
            "same": self.same,
            "expert_action": self.expert_action,
        }


@dataclass(frozen=True)
class DealReview:
    """The review of one deal."""

    number: int
    game: str
    form: str
    trump: str | None
    plays: tuple[PlayReview, ...] = ()
    exchange: tuple[ExchangeReview, ...] = ()
    contract: ContractReview | None = None
    discards: tuple[DiscardReview, ...] = ()
    seat_order: tuple[str, ...] = ()
    budget: int | None = None
    """the node budget the deal was reviewed under (``None``: none)"""
    nodes: int = 0
    """nodes the solver searched for the deal: a measure of the work that does not depend on the machine
    (left out of the JSON: it depends on what the solvers had already learnt, so on what they reviewed before)"""
    notes: tuple[str, ...] = field(default=())

    @property
    def counted(self) -> str:
        """Whose tricks the values count: the seat's side, or the seat alone."""
        return "side" if self.form == "partners" else "seat"

    @property
    def seats(self) -> dict[str, SeatTotal]:
        """Per player (the seat that chose the cards): cards, costly cards, tricks lost."""
        totals: dict[str, dict[str, int]] = {seat: {"cards": 0, "errors": 0, "cost": 0, "unscored": 0} for seat in self.seat_order}
        for play in self.plays:
            entry = totals.setdefault(play.by, {"cards": 0, "errors": 0, "cost": 0, "unscored": 0})
            entry["cards"] += 1
            cost = play.cost
            if cost is None:
                entry["unscored"] += 1
            elif cost > 0:
                entry["errors"] += 1
                entry["cost"] += cost
        return {seat: SeatTotal(**values) for seat, values in totals.items()}

    @property
    def unscored(self) -> tuple[PlayReview, ...]:
        return tuple(play for play in self.plays if not play.scored)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "game": self.game,
            "form": self.form,
            "trump": self.trump,
            "counted": self.counted,
            "measure": MEASURE if self.game != "rummy" else OPINION,
            "plays": [play.to_json() for play in self.plays],
            "seats": {seat: total.to_json() for seat, total in self.seats.items()},
            "budget": self.budget,
            "notes": list(self.notes),
            # each note's key and parameters, for a page that says it in the reader's language (null: English only)
            "note_keys": [{"key": note.key, "params": note.params} if isinstance(note, Reason) else None for note in self.notes],
        }
        if self.exchange:
            out["exchange"] = [decision.to_json() for decision in self.exchange]
        if self.contract is not None:
            out["contract"] = self.contract.to_json()
        if self.game == "rummy":
            out["discards"] = [discard.to_json() for discard in self.discards]
        return out


@dataclass(frozen=True)
class RecordReview:
    """The review of a record's deals."""

    game: str
    deals: tuple[DealReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deals": [deal.to_json() for deal in self.deals]}
