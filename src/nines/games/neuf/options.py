"""Le Neuf options: every variant is a field here, every named variant a preset.

The defaults are the common Eastern Canadian three-player game of seeds 000 and 001.
RULES.md ("Le Neuf") explains each option and why its default was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..contract import OptionsError
from ..tricks import parse_trump, trump_code

Form = Literal["three", "partners", "individual"]

STANDARD_CYCLE = ("H", "D", "C", "S", "NT")

SEATS_THREE = ("S", "W", "E")
SEATS_FOUR = ("N", "E", "S", "W")

MAX_CYCLE = 20
"""The longest trump cycle: four times the standard five entries."""

MAX_START_SCORE = 99
"""The highest start score: eleven times the standard nine points, so a match always ends."""


@dataclass(frozen=True)
class NeufOptions:
    """How a match of Le Neuf is played."""

    form: Form = "three"
    """``three``: three players and a spare hand (the usual game); ``partners``: the
    Newfoundland game, four players in two partnerships, no spare; ``individual``: four
    players each for themselves, no spare."""

    trump_cycle: tuple[str, ...] = STANDARD_CYCLE
    """Trump of each deal in turn, repeating: suit letters and ``NT`` for no trumps (1 to 20 entries)."""

    quota: int | None = None
    """Tricks each player (or partnership) must take; ``None`` is the form's own quota:
    4 for three players, 6 for a partnership, 3 for four individual players."""

    start_score: int = 9
    """Points each player (or partnership) starts the match with (1 to 99)."""

    exchange: bool | None = None
    """Whether the exchange with the spare hand is played; ``None`` means yes for the
    three-player game (the only form with a spare hand)."""

    dealer_exchanges_first: bool = False
    """Regional rule: the dealer is offered the exchange first (instead of the player
    on the dealer's left); play still begins on the dealer's left."""

    instant_win: bool = False
    """House rule: a player (or partnership) whose tricks bring their score to zero or
    below during play wins the match at once."""

    first_dealer: str | None = None
    """Seat that deals first; ``None`` draws it at random from the match seed."""

    def __post_init__(self) -> None:
        if self.form not in ("three", "partners", "individual"):
            raise OptionsError.of("neuf.options.form", f"form must be three, partners or individual, not {self.form!r}", value=repr(self.form))
        if not self.trump_cycle:
            raise OptionsError.of("neuf.options.cycle_empty", "trump_cycle needs at least one entry (suit letters or NT)")
        if len(self.trump_cycle) > MAX_CYCLE:
            raise OptionsError.of(
                "neuf.options.cycle_long",
                f"trump_cycle has {len(self.trump_cycle)} entries; at most {MAX_CYCLE} are allowed "
                "(the cycle repeats, so a short one is enough)",
                count=len(self.trump_cycle), most=MAX_CYCLE,
            )
        cycle = []
        for entry in self.trump_cycle:
            try:
                cycle.append(trump_code(parse_trump(str(entry))))
            except ValueError:
                raise OptionsError.of(
                    "neuf.options.cycle_entry", f"trump_cycle entry {entry!r}: each entry is S, H, D, C or NT", value=repr(entry)
                ) from None
        object.__setattr__(self, "trump_cycle", tuple(cycle))
        if self.exchange and self.form != "three":
            raise OptionsError.of("neuf.options.exchange", "only the three-player game has a spare hand to exchange with")
        if self.dealer_exchanges_first and not self.has_exchange:
            raise OptionsError.of("neuf.options.dealer_first", "dealer_exchanges_first needs the exchange (three-player game)")
        if not 1 <= self.start_score <= MAX_START_SCORE:
            raise OptionsError.of(
                "neuf.options.start_score", f"start_score must be from 1 to {MAX_START_SCORE} points, not {self.start_score}",
                most=MAX_START_SCORE, value=self.start_score,
            )
        if self.quota is not None and self.quota < 0:
            raise OptionsError.of("neuf.options.quota_negative", "quota cannot be negative")
        # 13 tricks against the quotas: the scores together must fall every deal,
        # otherwise nobody need ever reach zero.
        if self.side_count * self.side_quota >= 13:
            raise OptionsError.of(
                "neuf.options.quota_total",
                f"a quota of {self.side_quota} for {self.side_count} "
                f"{'partnerships' if self.form == 'partners' else 'players'} is "
                f"{self.side_count * self.side_quota} of the 13 tricks: the quotas together must be "
                "below 13 so that scores fall and the match can end",
                quota=self.side_quota, count=self.side_count, total=self.side_count * self.side_quota,
            )
        if self.first_dealer is not None and self.first_dealer not in self.seats:
            raise OptionsError.of("options.first_dealer", f"first_dealer must be one of {' '.join(self.seats)}", seats=list(self.seats))

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS_THREE if self.form == "three" else SEATS_FOUR

    @property
    def sides(self) -> tuple[str, ...]:
        """Who scores: each seat, or the partnerships ``NS`` and ``EW``."""
        return ("NS", "EW") if self.form == "partners" else self.seats

    @property
    def side_count(self) -> int:
        return len(self.sides)

    @property
    def side_quota(self) -> int:
        if self.quota is not None:
            return self.quota
        return {"three": 4, "partners": 6, "individual": 3}[self.form]

    @property
    def has_exchange(self) -> bool:
        return self.form == "three" if self.exchange is None else self.exchange

    def side_of(self, seat: str) -> str:
        if self.form == "partners":
            return "NS" if seat in ("N", "S") else "EW"
        return seat


PRESETS: dict[str, NeufOptions] = {
    # seeds 000 and 001, pagat: hearts, diamonds, clubs, spades, no trumps
    "standard": NeufOptions(),
    # seed 000's regional cycles
    "spades-first": NeufOptions(trump_cycle=("S", "H", "D", "C", "NT")),
    "hearts-clubs": NeufOptions(trump_cycle=("H", "C", "D", "S", "NT")),
    # the cycles Wikipedia gives
    "clubs-first": NeufOptions(trump_cycle=("C", "D", "H", "S", "NT")),
    "hearts-spades": NeufOptions(trump_cycle=("H", "S", "D", "C", "NT")),
    # seed 000 "in some regions", Wikipedia: the dealer exchanges first
    "dealer-first": NeufOptions(dealer_exchanges_first=True),
    # seed 000's tiebreaker house rule
    "instant-win": NeufOptions(instant_win=True),
    # seed 000: Newfoundland partnerships, no spare, team quota 6, teams start at 9
    "newfoundland-partners": NeufOptions(form="partners"),
    # Wikipedia: four players each for themselves, no trading, quota 3
    "four-individual": NeufOptions(form="individual"),
}
