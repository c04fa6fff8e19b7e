"""The race to go out, played through one imagined rummy deal: who goes out first, and what the others pay.

In a world (:mod:`nines.bots.rummy_worlds`) every player's coming draws are known: the
players draw from the stock in turn.  With them each player's hand can be planned
(:mod:`nines.bots.rummy_plan`) turn by turn: a player goes out on the first turn its
hand and the cards drawn so far can place all but the one it throws last (which cards
it throws on the turns between is chosen with hindsight, as the rummy oracle does).  The
first to go out scores 0 and every other player pays for what it still holds
(RULES.md, "Scoring"): the never-opened penalty if its cards cannot make an opening yet,
otherwise its unplaced cards at :data:`DEAD_CARD_POINTS` each.

The plan is asked about the hand's *shape* (its wilds and each suit's ranks as a bit
mask, :func:`nines.bots.rummy_plan.plan_shape`), grown one draw at a time, and only as far as the race goes:
a race over a dozen turns costs at most a dozen look-ups in the plan's memory per player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card, Rank, Suit
from .rummy_plan import LOW_ACE, plan_shape

UNOPENED_POINTS = 100.0
"""What a player who never opened pays (the standard ``unopened_penalty``)."""
DEAD_CARD_POINTS = 6.0
"""What an unplaced card costs on average when someone goes out: the expensive ones
(aces, courts) are thrown first, so the cards still held are mostly the cheap ones."""

Shape = tuple[int, tuple[int, int, int, int], int]
"""A hand as (wilds, each suit's positions as a bit mask, cards in all)."""


def _spots() -> dict[str, tuple[int, int]]:
    """Every natural card's (suit, bit in its suit's mask), by its code: looked up, not worked out, in the races."""
    spots: dict[str, tuple[int, int]] = {}
    for suit in Suit:
        for rank in Rank:
            card = Card(rank, suit)
            spots[card.code] = (suit.index, 1 << (LOW_ACE if rank is Rank.ACE else rank.value))
    return spots


_SPOTS = _spots()


def shape_of(cards: Sequence[Card], is_wild: Callable[[Card], bool]) -> Shape:
    wilds = 0
    masks = [0, 0, 0, 0]
    spots = _SPOTS
    for card in cards:
        if is_wild(card):
            wilds += 1
        else:
            suit, bit = spots[card.code]
            masks[suit] |= bit
    return wilds, (masks[0], masks[1], masks[2], masks[3]), len(cards)


def add_card(shape: Shape, card: Card, is_wild: Callable[[Card], bool]) -> Shape:
    wilds, masks, count = shape
    if is_wild(card):
        return wilds + 1, masks, count + 1
    suit, bit = _SPOTS[card.code]
    grown = masks[:suit] + (masks[suit] | bit,) + masks[suit + 1 :]
    return wilds, grown, count + 1  # type: ignore[return-value]


@dataclass(frozen=True)
class Runner:
    """One player in the race: the cards it starts from, how many it holds after each turn, its draws."""

    start: Shape
    holds: int
    """Cards held after each turn's discard: all of them must be placed but the last one thrown."""
    opened: bool
    draws: Sequence[Card]


class Progress:
    """A runner's plan turn by turn, (cards placed, can open) after its ``t + 1``-th draw, worked out as far as asked."""

    __slots__ = ("is_wild", "runner", "runs", "shape", "start", "states")

    def __init__(self, runner: Runner, runs: tuple[tuple[int, int, int], ...], is_wild: Callable[[Card], bool]) -> None:
        self.runner = runner
        self.runs = runs
        self.is_wild = is_wild
        self.shape = runner.start
        self.states: list[tuple[int, bool]] = []
        self.start = plan_shape(runner.start[0], runner.start[1], runs, runner.opened)

    def at(self, t: int) -> tuple[int, bool]:
        """The plan after the first ``t + 1`` draws (the start's plan for ``t = -1``)."""
        if t < 0:
            return self.start
        states = self.states
        while len(states) <= t:
            self.shape = add_card(self.shape, self.runner.draws[len(states)], self.is_wild)
            shape = self.shape
            states.append(plan_shape(shape[0], shape[1], self.runs, self.runner.opened))
        return states[t]


def penalty(runner: Runner, state: tuple[int, bool]) -> float:
    """What a player pays if the hand ends now, with its plan as ``state``."""
    placed, can_open = state
    if not runner.opened and not can_open:
        return UNOPENED_POINTS
    return DEAD_CARD_POINTS * max(0, runner.holds - placed)


def race(runners: Sequence[Progress]) -> list[float]:
    """Every runner's penalty when the first of them goes out (runners in turn order, each drawing in turn).

    When nobody goes out within the draws given, the hand is judged as it stands then.
    """
    n = len(runners)
    turns = min(len(r.runner.draws) for r in runners)
    for t in range(turns):
        for i in range(n):
            if runners[i].at(t)[0] >= runners[i].runner.holds:
                # runner i goes out on its turn t: those before it have drawn t + 1 times, the rest t
                return [
                    0.0 if j == i else penalty(r.runner, r.at(t if j < i else t - 1))
                    for j, r in enumerate(runners)
                ]
    return [penalty(r.runner, r.at(turns - 1)) for r in runners]


def deal_draws(stock: Sequence[Card], players: int, turns: int) -> list[list[Card]]:
    """Each player's coming draws when all draw from ``stock`` in turn (player 0 first), ``turns`` each."""
    return [list(stock[i : players * turns : players]) for i in range(players)]


__all__ = ["DEAD_CARD_POINTS", "UNOPENED_POINTS", "Progress", "Runner", "add_card", "deal_draws", "race", "shape_of"]
