"""A position to solve: hands, trump, the seat on lead and any cards already on the table.

:func:`make_position` checks everything a person can get wrong and says what to fix;
:func:`position_from_deal` reads the PBN-style deal notation (``nines.cards.parse_deal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card, NotationError, Suit, format_cards, format_deal, parse_cards, parse_deal
from . import _core
from .errors import SolverInputError
from .games import GameDef, game_def, resolve_form, sides_of

__all__ = ["Position", "make_position", "parse_trump_text", "position_from_deal"]


@dataclass(frozen=True)
class Position:
    """A checked position; build it with :func:`make_position` or :func:`position_from_deal`."""

    game: str
    form: str
    seats: tuple[str, ...]
    hands: Mapping[str, tuple[Card, ...]]
    """Each seat's cards still in hand (cards already on the table are not in them)."""
    trump: Suit | None
    leader: str
    """The seat that leads the current trick (it has already led if ``played`` is not empty)."""
    played: tuple[Card, ...] = ()
    """Cards on the table in the current trick, in order from the leader."""

    @property
    def gdef(self) -> GameDef:
        return game_def(self.game)

    @property
    def sides(self) -> tuple[str, ...]:
        """Who tricks are counted for: ``NS``/``EW``, or each seat (paranoid forms)."""
        return sides_of(self.form, self.seats)

    @property
    def to_play(self) -> str:
        """The seat whose turn it is."""
        i = self.seats.index(self.leader)
        return self.seats[(i + len(self.played)) % len(self.seats)]

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the one in progress included."""
        return len(self.hands[self.to_play])

    def seat_index(self, seat: str) -> int:
        return self.seats.index(seat)

    def side_of(self, seat: str) -> str:
        if self.form == "partners":
            return "NS" if seat in ("N", "S") else "EW"
        return seat

    def side_seats(self, side: str) -> tuple[str, ...]:
        if self.form == "partners":
            return ("N", "S") if side == "NS" else ("E", "W")
        return (side,)

    def maxmask(self, side: str) -> int:
        """The core's bit set of the seats whose tricks are counted."""
        return sum(1 << self.seats.index(seat) for seat in self.side_seats(side))

    def core_args(self) -> tuple[int, int, int, tuple[tuple[int, int, int, int], ...], int, tuple[int, ...]]:
        g = self.gdef
        return (
            len(self.seats),
            g.rule,
            -1 if self.trump is None else self.trump.index,
            tuple(g.masks(self.hands[seat]) for seat in self.seats),
            self.seats.index(self.leader),
            tuple(g.code(card) for card in self.played),
        )

    def deal_text(self) -> str:
        """The hands in deal notation, from the game's first seat."""
        return format_deal(self.hands, self.seats, strength=self.gdef.strength)

    def __str__(self) -> str:
        trump = "NT" if self.trump is None else self.trump.value
        text = f"{self.game} {self.form} {self.deal_text()} trump {trump} leader {self.leader}"
        return text + (f" played {format_cards(self.played)}" if self.played else "")


def parse_trump_text(text: str) -> Suit | None:
    """``S``/``H``/``D``/``C`` (or a suit symbol), or ``NT`` for no trumps."""
    key = text.strip().upper()
    if key in ("NT", "N", "NOTRUMP", "NOTRUMPS", "NONE", ""):
        return None
    try:
        return Suit.parse(text)
    except NotationError:
        raise SolverInputError(f"{text!r} is not a trump: write S, H, D or C, or NT for no trumps") from None


def _seat_name(seats: Sequence[str], seat: str, what: str) -> str:
    name = seat.strip().upper()
    if name not in seats:
        raise SolverInputError(f"{what} {seat!r} is not a seat here; the seats are {' '.join(seats)}")
    return name


def make_position(
    game: str,
    hands: Mapping[str, Sequence[Card]],
    trump: Suit | None,
    leader: str,
    played: Sequence[Card] = (),
    *,
    form: str | None = None,
) -> Position:
    """Check a position and return it.  Raises :class:`SolverInputError` on anything wrong."""
    g = game_def(game)
    form_name = resolve_form(g, form, len(hands))
    seats = g.seats(form_name)
    named = {seat.strip().upper(): tuple(cards) for seat, cards in hands.items()}
    if set(named) != set(seats):
        raise SolverInputError(
            f"{g.id} ({form_name}) needs one hand for each of {' '.join(seats)}, got {' '.join(sorted(named)) or 'none'}"
        )
    if trump is not None and not isinstance(trump, Suit):
        raise SolverInputError(f"trump must be a Suit or None (no trumps), not {trump!r}")
    lead = _seat_name(seats, leader, "leader")
    table = tuple(played)
    if len(table) >= len(seats):
        raise SolverInputError(
            f"{len(table)} cards on the table: a trick in progress has at most {len(seats) - 1} "
            "(a finished trick is no longer on the table)"
        )
    seen: dict[Card, str] = {}
    for seat in seats:
        for card in named[seat]:
            if not isinstance(card, Card) or card.is_joker:
                raise SolverInputError(f"hand of {seat}: {card!r} is not a playing card")
            if card not in g.deck:
                raise SolverInputError(f"{card.code} is not in the {g.id} deck (hand of {seat})")
            if card in seen:
                raise SolverInputError(f"{card.code} is dealt twice ({seen[card]} and {seat})")
            seen[card] = seat
    order = [seats[(seats.index(lead) + k) % len(seats)] for k in range(len(seats))]
    for k, card in enumerate(table):
        if not isinstance(card, Card) or card.is_joker or card not in g.deck:
            raise SolverInputError(f"played card {card!r} is not in the {g.id} deck")
        if card in seen:
            where = seen[card]
            raise SolverInputError(f"{card.code} is on the table and also in {where}'s hand")
        seen[card] = f"the table ({order[k]})"
    # equal hands at a trick start; a trick in progress leaves those who played one card short
    to_play = order[len(table)]
    n = len(named[to_play])
    expected = {seat: n - (1 if k < len(table) else 0) for k, seat in enumerate(order)}
    sizes = {seat: len(named[seat]) for seat in seats}
    if sizes != expected:
        listed = ", ".join(f"{seat} {n}" for seat, n in sizes.items())
        if table:
            raise SolverInputError(
                f"with {len(table)} card(s) on the table, the seats that played ({' '.join(order[: len(table)])}) "
                f"must hold one card fewer than the others, and the others the same number ({listed})"
            )
        raise SolverInputError(f"every hand must hold the same number of cards at the start of a trick ({listed})")
    if not named[to_play]:
        raise SolverInputError("the hands are empty: there is nothing left to solve")
    if sizes[to_play] > g.max_hand:
        raise SolverInputError(f"{g.id} hands hold at most {g.max_hand} cards, {to_play} has {sizes[to_play]}")
    trump_index = -1 if trump is None else trump.index
    for k, card in enumerate(table):
        seat = order[k]
        before = named[seat] + (card,)
        allowed = _core.legal(g.rule, trump_index, g.masks(before), [g.code(c) for c in table[:k]])
        if g.code(card) not in allowed:
            legal_cards = format_cards(g.card(code) for code in allowed)
            rule = (
                "follow suit and beat the best card of the led suit if you can; void, trump (over-trumping if you can)"
                if g.id == "elyigit"
                else "follow suit if you can"
            )
            raise SolverInputError(
                f"{card.code} cannot have been played by {seat}: holding {format_cards(before)} "
                f"after {format_cards(table[:k]) or 'nothing'}, the rule ({rule}) allows only {legal_cards}"
            )
    return Position(
        game=g.id,
        form=form_name,
        seats=seats,
        hands={seat: named[seat] for seat in seats},
        trump=trump,
        leader=lead,
        played=table,
    )


def position_from_deal(
    game: str,
    deal: str,
    trump: str | Suit | None,
    leader: str,
    played: str | Sequence[Card] = (),
    *,
    form: str | None = None,
) -> Position:
    """Read a deal in PBN-style notation (``"N:98.A75.2.643 ..."``) and check the position.

    The number of hands picks Le Neuf's form (3: ``three``, 4: ``partners`` unless
    ``form="individual"``).
    """
    g = game_def(game)
    if not isinstance(deal, str) or ":" not in deal:
        raise SolverInputError(
            f"{deal!r} is not a deal: write '<first seat>:<hand> <hand> ...', each hand "
            "spades.hearts.diamonds.clubs with '-' for a void"
        )
    count = len(deal.partition(":")[2].split())
    form_name = resolve_form(g, form, count)
    seats = g.seats(form_name)
    try:
        hands = parse_deal(deal, seats, equal_sizes=False, allowed=g.deck)
        table = parse_cards(played) if isinstance(played, str) else list(played)
    except NotationError as error:
        raise SolverInputError(str(error)) from None
    trump_suit = parse_trump_text(trump) if isinstance(trump, str) else trump
    return make_position(g.id, hands, trump_suit, leader, table, form=form_name)
