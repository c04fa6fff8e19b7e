"""Nines rummy options: every variant is a field here, every named variant a preset.

The defaults are seed 002 as written plus the project's choices for what the seed
leaves open (RULES.md, "Nines rummy", explains each one and why).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..contract import OptionsError

HAND_SIZE = 9
"""Seed 002: deal exactly nine cards to each player."""

DECK_SIZE = 54
"""One deck: 52 standard cards and two printed jokers."""

MIN_PLAYERS = 2
MAX_PLAYERS = 8
ONE_DECK_MAX_PLAYERS = 4
"""Seed 002: one deck for 2 to 4 players, two decks for 5 to 8."""

MAX_HANDS = 40
"""The most hands in a session: five rounds of the largest table."""

MAX_RESHUFFLES = 10
"""The most times the stock may be rebuilt in one hand (when a number is given)."""

MAX_TURNS = 300
"""The most turns per player in one hand (when a number is given)."""

MAX_PENALTY = 1000
"""The largest penalty a card or an unopened hand may cost."""


@dataclass(frozen=True)
class RummyOptions:
    """How a session of Nines rummy is played."""

    players: int = 4
    """Number of players, 2 to 8; the seats are ``1`` to ``n``, clockwise."""

    decks: int | None = None
    """54-card decks shuffled together; ``None`` is the seed's rule: one deck for 2 to 4
    players, two for 5 to 8.  Monkeys exist only in two-deck games."""

    hands: int | Literal["open"] | None = "open"
    """Hands in the session.  ``open`` (seed 002): no fixed number; the session ends after
    the hand in which the table asks for it (``end session``).  A number fixes it; ``None``
    plays one hand per player, so that every player starts once (what simulations and
    tournaments play when the session is open).  At most 40."""

    reshuffles: int | None = None
    """How many times in one hand the stock may be rebuilt from the discard pile; the next
    time the stock runs out the hand ends and every hand is scored as it stands.
    0 to 10; ``None`` (seed 002): rebuilt as often as needed; the hand ends only when someone goes out."""

    turns_per_player: int | None = None
    """A hand ends, scored as it stands, once every player has had this many turns: the
    guarantee that a hand ends (the stock cap alone cannot end a hand in which players keep
    taking the top discard and throwing it back, since the stock never runs out).
    2 to 300; ``None`` (seed 002): no limit."""

    wild_places: Literal["player", "rule"] = "player"
    """Which wild sits in which place of a set laid: ``player`` (seed 002): each wild stands for
    the card the player declares (``lay JK=7H TC=8H 9H`` and ``lay TC=7H JK=8H 9H`` differ: a
    later swap of the 7H returns the joker in one, the ten in the other); ``rule``: the project's
    rule places them, whatever the player writes (fewer moves to choose from)."""

    natural_in_monkey: bool = False
    """A monkey must hold at least one natural card of its rank.  ``False`` (seed 002): a wild
    stands in for any card a monkey needs, so a monkey may be all wild, like a run."""

    ace_points: int = 15
    """Penalty for an ace left in hand (it serves both ends of a run)."""

    court_points: int = 10
    """Penalty for a jack, queen or king left in hand; other cards count their pips (ten 10)."""

    wild_points: int = 25
    """Penalty for a wild left in hand: a printed joker or a card of the wild rank."""

    unopened_penalty: int | None = 100
    """What a player who never opened scores instead of counting their cards (the
    Okey-101 custom); ``None`` counts their cards like anyone else's."""

    first_starter: str | None = None
    """Seat that starts the first hand; ``None`` draws it at random from the seed."""

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise OptionsError.of(
                "rummy.options.players", f"players is a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}",
                least=MIN_PLAYERS, most=MAX_PLAYERS, value=repr(self.players),
            )
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise OptionsError.of(
                "rummy.options.players", f"Nines rummy is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}",
                least=MIN_PLAYERS, most=MAX_PLAYERS, value=repr(self.players),
            )
        if self.decks is not None and self.decks not in (1, 2):
            raise OptionsError.of("rummy.options.decks", f"decks is 1 or 2 (or none for the seed's rule), not {self.decks!r}", value=repr(self.decks))
        # Nine cards each, the indicator and the first discard must come from the pack,
        # and at least one card must be left for the stock.
        needed = self.players * HAND_SIZE + 2 + 1
        if needed > self.deck_count * DECK_SIZE:
            raise OptionsError.of(
                "rummy.options.one_deck",
                f"{self.players} players need {self.players * HAND_SIZE} cards dealt plus the indicator, "
                f"the first discard and a stock: one deck is not enough, use decks=2 (or leave decks unset)",
                count=self.players,
            )
        if self.hands is not None and self.hands != "open" and (isinstance(self.hands, bool) or not isinstance(self.hands, int)):
            raise OptionsError.of(
                "rummy.options.hands_kind",
                f"hands is a number of hands, open (the table ends the session) or none (one per player), not {self.hands!r}",
                value=repr(self.hands),
            )
        if isinstance(self.hands, int) and not 1 <= self.hands <= MAX_HANDS:
            raise OptionsError.of(
                "rummy.options.hands", f"a session has at least one hand and at most {MAX_HANDS}, not {self.hands}",
                most=MAX_HANDS, value=self.hands,
            )
        if self.reshuffles is not None and not 0 <= self.reshuffles <= MAX_RESHUFFLES:
            raise OptionsError.of(
                "rummy.options.reshuffles", f"reshuffles must be from 0 to {MAX_RESHUFFLES}, not {self.reshuffles}; none means no limit",
                most=MAX_RESHUFFLES, value=self.reshuffles,
            )
        if self.turns_per_player is not None and not 2 <= self.turns_per_player <= MAX_TURNS:
            raise OptionsError.of(
                "rummy.options.turns",
                f"turns_per_player must be from 2 (everyone's first turn is draw and discard only) to {MAX_TURNS}, "
                f"not {self.turns_per_player}; none means no limit",
                most=MAX_TURNS, value=self.turns_per_player,
            )
        for name in ("ace_points", "court_points", "wild_points"):
            if not 0 <= getattr(self, name) <= MAX_PENALTY:
                raise OptionsError.of(
                    "rummy.options.penalty",
                    f"{name} is a penalty from 0 to {MAX_PENALTY} points (it cannot be negative), not {getattr(self, name)}",
                    option=name, most=MAX_PENALTY, value=getattr(self, name),
                )
        if self.unopened_penalty is not None and not 0 <= self.unopened_penalty <= MAX_PENALTY:
            raise OptionsError.of(
                "rummy.options.penalty",
                f"unopened_penalty is a penalty from 0 to {MAX_PENALTY} points (it cannot be negative), not {self.unopened_penalty}",
                option="unopened_penalty", most=MAX_PENALTY, value=self.unopened_penalty,
            )
        if self.first_starter is not None and self.first_starter not in self.seats:
            raise OptionsError.of(
                "options.first_starter", f"first_starter must be one of the seats {' '.join(self.seats)}, not {self.first_starter!r}",
                seats=list(self.seats),
            )

    @property
    def seats(self) -> tuple[str, ...]:
        """Seats ``1`` to ``n`` in clockwise order."""
        return tuple(str(i) for i in range(1, self.players + 1))

    @property
    def deck_count(self) -> int:
        if self.decks is not None:
            return self.decks
        return 1 if self.players <= ONE_DECK_MAX_PLAYERS else 2

    @property
    def two_decks(self) -> bool:
        """Monkeys are played only in two-deck games."""
        return self.deck_count == 2

    @property
    def open_session(self) -> bool:
        """Seed 002: no fixed number of hands; the table ends the session."""
        return self.hands == "open"

    @property
    def session_hands(self) -> int | None:
        """The number of hands in the session; ``None`` for an open session."""
        if self.hands == "open":
            return None
        return self.hands if self.hands is not None else self.players

    def fixed_session(self) -> RummyOptions:
        """These options with a fixed number of hands (an open session plays one hand per player):
        for simulations and tournaments, where nobody is there to end the session."""
        return replace(self, hands=None) if self.open_session else self

    def capped_hands(self) -> RummyOptions:
        """These options with hands that end: the ``capped`` preset's caps where none are set (under the
        seed's rules a hand can lock and go on for ever, RULES.md): for a table of computer players alone."""
        capped = PRESETS["capped"]
        return replace(self, reshuffles=capped.reshuffles if self.reshuffles is None else self.reshuffles,
                       turns_per_player=capped.turns_per_player if self.turns_per_player is None else self.turns_per_player)


PRESETS: dict[str, RummyOptions] = {
    # seed 002: rebuild the stock as often as needed, no turn limit, an open session
    "standard": RummyOptions(),
    # the caps that guarantee every hand ends (for tournaments): two rebuilds of the stock,
    # sixty turns each, one hand per player
    "capped": RummyOptions(hands=None, reshuffles=2, turns_per_player=60),
    # two decks whatever the number of players: monkeys with 2 to 4 players too
    "two-decks": RummyOptions(decks=2),
    # one hand and done
    "single-hand": RummyOptions(hands=1),
    # the wilds of a set placed by the project's rule, not by the player
    "fixed-wilds": RummyOptions(wild_places="rule"),
    # two decks (monkeys), each monkey holding a natural card of its rank
    "natural-monkeys": RummyOptions(decks=2, natural_in_monkey=True),
    # a fixed session: one hand per player, so that everyone starts once
    "one-hand-each": RummyOptions(hands=None),
    # Indian Rummy's count: jokers and wilds cost nothing, ace and court cards 10
    "indian-scoring": RummyOptions(ace_points=10, wild_points=0),
    # the high end of the conventions: ace 15, wilds 50, a never-opened hand 150
    "heavy-penalties": RummyOptions(wild_points=50, unopened_penalty=150),
}
