"""What the solver needs to know of each trick-taking game: seats, deck, rank order, play rule.

The compiled core knows cards only as ``suit << 4 | strength`` codes, ``strength`` counting
from 0 for the weakest rank of the game (the two in Le Neuf, the ace in Elyigit's Nines).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..cards import SUITS, Card, Rank, Suit, ace_high, ace_low, deck_36, deck_52
from . import _core
from .errors import SolverInputError

__all__ = ["FORMS", "GAMES", "Form", "GameDef", "game_def", "resolve_form", "sides_of"]

Form = Literal["three", "partners", "individual"]
FORMS: tuple[str, ...] = ("three", "partners", "individual")


@dataclass(frozen=True)
class GameDef:
    """One game as the solver sees it."""

    id: str
    seats_by_form: dict[str, tuple[str, ...]]
    forms: tuple[str, ...]
    strength: Callable[[Rank], int]
    lowest: int
    """``strength`` of the game's weakest rank (code strength 0)."""
    rule: int
    """the core's play rule: follow suit, or Elyigit's follow-and-beat, trump and over-trump"""
    deck: frozenset[Card]
    max_hand: int

    def seats(self, form: str) -> tuple[str, ...]:
        return self.seats_by_form[form]

    def code(self, card: Card) -> int:
        assert card.suit is not None and card.rank is not None
        return card.suit.index << 4 | (self.strength(card.rank) - self.lowest)

    def card(self, code: int) -> Card:
        suit = SUITS[code >> 4]
        strength = (code & 15) + self.lowest
        for rank in Rank:
            if self.strength(rank) == strength:
                return Card(rank, suit)
        raise ValueError(f"no card of strength {strength}")  # pragma: no cover - codes come from the core

    def masks(self, cards: Iterable[Card]) -> tuple[int, int, int, int]:
        out = [0, 0, 0, 0]
        for card in cards:
            code = self.code(card)
            out[code >> 4] |= 1 << (code & 15)
        return (out[0], out[1], out[2], out[3])


GAMES: dict[str, GameDef] = {
    "elyigit": GameDef(
        id="elyigit",
        seats_by_form={"partners": ("N", "E", "S", "W")},
        forms=("partners",),
        strength=ace_low,
        lowest=1,
        rule=_core.RULE_ELYIGIT,
        deck=frozenset(deck_36()),
        max_hand=9,
    ),
    "neuf": GameDef(
        id="neuf",
        seats_by_form={"three": ("S", "W", "E"), "partners": ("N", "E", "S", "W"), "individual": ("N", "E", "S", "W")},
        forms=("three", "partners", "individual"),
        strength=ace_high,
        lowest=2,
        rule=_core.RULE_FOLLOW,
        deck=frozenset(deck_52()),
        max_hand=13,
    ),
}


def game_def(game: str) -> GameDef:
    try:
        return GAMES[game.strip().lower()]
    except KeyError:
        raise SolverInputError(
            f"the solver knows the trick-taking games {' and '.join(GAMES)}, not {game!r} "
            "(rummy has no tricks to solve)"
        ) from None


def resolve_form(gdef: GameDef, form: str | None, hand_count: int | None = None) -> str:
    """The form to solve: the one asked for, or the one the number of hands implies."""
    if form is not None:
        name = form.strip().lower()
        if name not in gdef.forms:
            raise SolverInputError(f"{gdef.id} is solved in the form(s) {', '.join(gdef.forms)}, not {form!r}")
        if hand_count is not None and len(gdef.seats(name)) != hand_count:
            raise SolverInputError(
                f"the {name} form of {gdef.id} has {len(gdef.seats(name))} hands "
                f"({' '.join(gdef.seats(name))}), but {hand_count} were given"
            )
        return name
    if gdef.id == "neuf":
        if hand_count == 3 or hand_count is None:
            return "three"
        if hand_count == 4:
            return "partners"
        raise SolverInputError(f"Le Neuf is played with 3 hands (S W E) or 4 (N E S W), not {hand_count}")
    return gdef.forms[0]


def sides_of(form: str, seats: Sequence[str]) -> tuple[str, ...]:
    """Who the trick counts are reported for: partnerships, or each seat (paranoid values)."""
    return ("NS", "EW") if form == "partners" else tuple(seats)


def suit_of(trump: Suit | None) -> int:
    return -1 if trump is None else trump.index
