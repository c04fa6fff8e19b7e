"""The ``ismcts`` Nines rummy player: information-set Monte Carlo over imagined deals, racing to go out.

Each decision deals a fixed number of worlds consistent with the seat's view
(:mod:`nines.bots.rummy_worlds`: the opponents' hands, known cards included, and the
order of the stock) and plays every option of the decision through the same worlds
(:mod:`nines.bots.rummy_race`): each player draws from the stock in turn and goes out
as soon as its cards allow; the first out scores 0 and the others pay for what they hold.
The option with the best average result (this seat's penalty less the opponents'
average) is played.  Evaluating every option in the same worlds compares them on the
same luck, which is what the selection of an information-set search spends its budget
on; rummy's decisions are shallow (one draw, one discard a turn) and a random playout
tells nothing (random players never go out), so the search is one level deep and its
playouts are the race.

* **Drawing**: the top discard against the stock (a wild on the pile is always taken).
* **Discarding**: every card it may discard; in worlds where the card fits the next
  player's imagined hand, that player takes it instead of drawing from the stock.
* **Set plays** (lay, extend, swap): the expert's plan-based choice
  (:class:`nines.bots.expert_rummy.RummyExpert`), which lays whatever does not leave
  the hand worse placed.

The worlds are weighted by what the opponents showed (:mod:`nines.bots.rummy_reading`):
``RaceBudget.reading`` says how much of it is read.  The budget (worlds and the race's
length) is a number, so a seeded match replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..games.rummy import Discard, Draw, RummyView
from .base import Decision, Reason
from .expert_rummy import RummyBudget, RummyExpert, RummyReading, without
from .rummy_plan import table_key
from .rummy_race import Progress, Runner, deal_draws, race, shape_of
from .rummy_reading import OpponentReading
from .rummy_worlds import World, WorldSampler


@dataclass(frozen=True)
class RaceBudget:
    worlds: int = 24
    """Imagined deals per decision: every option is played through each."""
    turns: int = 12
    """Turns each player draws in a race before the hand is judged as it stands."""
    reading: str = "all"
    """How the imagined hands are weighted: ``all`` by the opponents' pick-ups, pass-overs,
    discards and set plays; ``draws`` by their pick-ups and pass-overs only; ``none`` not at all
    (only the cards they are known to hold are placed)."""
    swaps: bool = False
    """Whether the race counts a natural card that a wild on the table stands for as a wild
    (whoever holds it may swap it for that wild: RULES.md, "Extending and swapping"); without it
    the plan, which knows only runs, counts such a card as dead."""

    def __post_init__(self) -> None:
        if self.reading not in ("all", "draws", "none"):
            raise ValueError(f"reading is all, draws or none, not {self.reading!r}")


ISMCTS_BUDGET = RaceBudget(worlds=24, turns=12, reading="draws")
"""``ismcts``: the worlds consistent with the view, weighted by the cards the opponents picked
up and passed over."""

EXPERT_BUDGET = RaceBudget(worlds=24, turns=12, reading="all", swaps=True)
"""``expert``: the same search with everything the opponents showed read, and the cards a swap
turns into wilds counted as wilds (two players, paired against the expert without it: +2.4
[-0.7, +5.4] a hand on 200 deals of seed 7, +2.9 [+0.2, +5.6] on 300 deals of seed 97, with
``nines tournament``)."""


class RummyIsmcts(RummyExpert):
    name = "ismcts"

    def __init__(self, rng: random.Random, budget: RaceBudget | None = None, name: str = "ismcts") -> None:
        super().__init__(rng, RummyBudget())
        self.name = name
        self.race_budget = budget or RaceBudget()
        self.last_discards: dict[Card, tuple[float, float, float]] = {}
        """The last discard's options: (mean result, share of worlds out first, share fed to the next player)."""

    def decide(self, view: RummyView) -> Decision:
        return self.decide_reading(RummyReading(view))

    # -- the worlds ------------------------------------------------------------------------

    def _worlds(self, reading: RummyReading) -> list[World]:
        how = self.race_budget.reading
        opponents = None if how == "none" else OpponentReading(reading.view, everything=how == "all")
        sampler = WorldSampler(reading, opponents)
        return [sampler.sample(self.rng) for _ in range(self.race_budget.worlds)]

    def _turns(self, reading: RummyReading) -> int:
        return self.race_budget.turns

    def _racing_wild(self, reading: RummyReading) -> Callable[[bool], Callable[[Card], bool]]:
        """What the race counts as a wild for a player that has opened or not: the wilds, and (``swaps``)
        for a player that has opened the natural cards a wild on the table stands for (a swap turns
        each into a wild; swapping is for players who have opened: RULES.md, "Extending and swapping")."""
        is_wild = reading.is_wild
        standing = swappable(reading.view) if self.race_budget.swaps else frozenset()
        if not standing:
            return lambda opened: is_wild

        def with_swaps(card: Card) -> bool:
            return is_wild(card) or card in standing

        return lambda opened: with_swaps if opened else is_wild

    # -- drawing -----------------------------------------------------------------------

    def _draw(self, reading: RummyReading, actions: Sequence[object]) -> Decision:
        view = reading.view
        top = view.top_discard
        if Draw("discard") not in actions or top is None or Draw("stock") not in actions or reading.is_wild(top):
            return super()._draw(reading, actions)
        hand = list(view.hand)
        runs = table_key(reading.table)
        wilds_for = self._racing_wild(reading)
        players = len(reading.opponents) + 1
        turns = self._turns(reading)
        is_wild = wilds_for(reading.opened)
        me = shape_of(hand, is_wild)
        total = {"stock": 0.0, "discard": 0.0}
        out = {"stock": 0, "discard": 0}
        for world in self._worlds(reading):
            # the opponents and this seat's later turns draw the same cards whichever it takes now
            # (the card it leaves goes to someone: which card that is makes no difference on average,
            # and comparing both choices on the same coming draws leaves only the choice's own effect)
            later = deal_draws(world.stock[1:], players, turns)
            opponents = [_runner(world.hands[seat], seat in view.opened, later[i], runs, wilds_for)
                         for i, seat in enumerate(_in_turn(view))]
            for source, card in (("stock", world.stock[0]), ("discard", top)):
                mine = Progress(Runner(me, len(hand), reading.opened, [card] + later[-1]), runs, is_wild)
                result = race([mine] + opponents)
                total[source] += result[0] - sum(result[1:]) / (players - 1)
                out[source] += result[0] == 0.0
        n = self.race_budget.worlds
        pile, stock = total["discard"] / n, total["stock"] / n
        take = pile < stock
        chosen, other = ("discard", "stock") if take else ("stock", "discard")
        note = Reason(
            "hint.rummy.race_vs_stock" if take else "hint.rummy.race_vs_card",
            f"I go out first in {100 * out[chosen] / n:.0f}% of {n} likely deals and score {_points(total[chosen] / n)} "
            f"({'the stock' if take else top.code}: {100 * out[other] / n:.0f}%, {_points(total[other] / n)})",
            percent=round(100 * out[chosen] / n), deals=n, score=_points(total[chosen] / n), card=top,
            other_percent=round(100 * out[other] / n), other_score=_points(total[other] / n),
        )
        if take:
            return Decision(Draw("discard"), Reason("hint.rummy.race_take", f"take {top.code}: {note}", card=top, note=note))
        return Decision(Draw("stock"), Reason("hint.rummy.race_draw", f"draw from the stock: {note}", note=note))

    # -- the discard -------------------------------------------------------------------

    def _discard(self, reading: RummyReading, discards: list[Discard], hand: list[Card]) -> Decision:
        assert discards, "a turn always ends with a discard"
        if len(hand) == 1 or len(discards) == 1:
            return super()._discard(reading, discards, hand)
        view = reading.view
        runs = table_key(reading.table)
        wilds_for = self._racing_wild(reading)
        is_wild = wilds_for(reading.opened)
        players = len(reading.opponents) + 1
        turns = self._turns(reading)
        cards = list(dict.fromkeys(d.card for d in discards))
        shapes = {card: shape_of(without(hand, [card]), is_wild) for card in cards}
        total = dict.fromkeys(cards, 0.0)
        wins = dict.fromkeys(cards, 0)
        fed = dict.fromkeys(cards, 0)
        order = _in_turn(view)
        following = order[0]
        for world in self._worlds(reading):
            draws = deal_draws(world.stock, players, turns)
            opponents = [_runner(world.hands[seat], seat in view.opened, draws[i], runs, wilds_for) for i, seat in enumerate(order)]
            following_runner = opponents[0].runner
            for card in cards:
                racing = opponents
                # the next player takes the card when it fits its imagined hand (instead of its
                # first stock card: every other draw stays as it was, so the discards are compared
                # on the same coming draws)
                if not reading.is_wild(card) and _fits(reading, world.hands[following], following, card, runs,
                                                       wilds_for(following in view.opened)):
                    fed[card] += 1
                    taker = Runner(following_runner.start, following_runner.holds, following_runner.opened,
                                   [card] + list(following_runner.draws[1:]))
                    racing = [Progress(taker, runs, opponents[0].is_wild)] + opponents[1:]
                mine = Progress(Runner(shapes[card], len(hand) - 1, reading.opened, draws[-1]), runs, is_wild)
                result = race(racing + [mine])
                total[card] += result[-1] - sum(result[:-1]) / (players - 1)
                wins[card] += result[-1] == 0.0
        n = self.race_budget.worlds
        self.last_discards = {card: (total[card] / n, wins[card] / n, fed[card] / n) for card in cards}
        # equal averages: keep the cheaper card (it costs less if someone goes out)
        best = min(cards, key=lambda c: (total[c], -reading.points(c), c.code))
        action = next(d for d in discards if d.card == best)
        said = f"discard {best.code}: I go out first in {100 * wins[best] / n:.0f}% of {n} likely deals and score {_points(total[best] / n)}"
        params = {"card": best, "percent": round(100 * wins[best] / n), "deals": n, "score": _points(total[best] / n)}
        if fed[best]:
            fed_percent = round(100 * fed[best] / n)
            return Decision(action, Reason("hint.rummy.race_discard_fed", f"{said}; {following} would take it in "
                                           f"{100 * fed[best] / n:.0f}% of them", **params, seat=following, fed_percent=fed_percent))
        return Decision(action, Reason("hint.rummy.race_discard", said, **params))


def _points(difference: float) -> Reason:
    """A mean penalty difference (this seat's less the others' average) in words."""
    if abs(difference) < 0.05:
        return Reason("hint.rummy.points_same", "as much as the others")
    return Reason("hint.rummy.points_less" if difference < 0 else "hint.rummy.points_more",
                  f"{abs(difference):.1f} points {'less' if difference < 0 else 'more'} than the others", points=round(abs(difference), 1))


def _runner(hand: list[Card], opened: bool, draws: Sequence[Card], runs: tuple[tuple[int, int, int], ...],
            wilds_for: Callable[[bool], Callable[[Card], bool]]) -> Progress:
    """An imagined opponent in the race, from its imagined hand and coming draws."""
    is_wild = wilds_for(opened)
    return Progress(Runner(shape_of(hand, is_wild), len(hand), opened, draws), runs, is_wild)


def swappable(view: RummyView) -> frozenset[Card]:
    """The natural cards a wild on the table stands for: whoever holds one may swap it for that wild."""
    return frozenset(p.stands_for for table_set in view.table for p in table_set.cards if p.wild)


def _in_turn(view: RummyView) -> list[str]:
    """The opponents in the order they play after this seat (clockwise)."""
    seats = view.seats
    assert view.seat is not None
    me = seats.index(view.seat)
    return [seats[(me + i) % len(seats)] for i in range(1, len(seats))]


def _fits(reading: RummyReading, hand: list[Card], seat: str, card: Card, runs: tuple[tuple[int, int, int], ...],
          is_wild: Callable[[Card], bool]) -> bool:
    """Whether ``card`` leaves ``hand`` no worse placed: the player to move next would take it."""
    from .rummy_plan import plan_shape

    opened = seat in reading.view.opened
    before = shape_of(hand, is_wild)
    after = shape_of(hand + [card], is_wild)
    placed_before, _ = plan_shape(before[0], before[1], runs, opened)
    placed_after, _ = plan_shape(after[0], after[1], runs, opened)
    return placed_after > placed_before


__all__ = ["EXPERT_BUDGET", "ISMCTS_BUDGET", "RaceBudget", "RummyIsmcts"]
