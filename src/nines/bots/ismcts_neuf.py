"""The ``ismcts`` player for Le Neuf: SO-ISMCTS with random playouts, 350 simulations a move.

Card play is :func:`nines.bots.ismcts.search` over worlds dealt by
:class:`~nines.bots.neuf_worlds.NeufKnowledge` (so the voids each player showed are
respected).  Each player's result is its share of the deal's tricks (its partnership's
in the Newfoundland game), which is what the quota scoring rewards.

The exchange is decided by comparing simulated outcomes: the same number of worlds
are dealt for both choices (the same worlds for each, to compare like with like), the
deal is played out at random from the first lead, and the choice with more tricks on
average is made.  The players still to decide are assumed to keep their hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import Card
from ..games.neuf import Exchange, Keep, NeufView
from ..games.tricks import Play
from .base import Decision, Reason
from .ismcts import DEFAULT_EXPLORATION, DEFAULT_ITERATIONS, search
from .neuf_worlds import EXTRA, NeufKnowledge
from .tricksim import ACE_HIGH_CARDS, FOLLOW_SUIT, TrickPosition


def result_function(form: str, seats: int) -> Callable[[TrickPosition], list[float]]:
    """Each seat's result at the end of a deal: its (partnership's) share of the tricks, 0..1."""
    if form == "partners":
        def partners(pos: TrickPosition) -> list[float]:
            ns = (pos.won[0] + pos.won[2]) / 13
            return [ns, 1 - ns, ns, 1 - ns]
        return partners

    def own(pos: TrickPosition) -> list[float]:
        return [w / 13 for w in pos.won]
    return own


def centre_hand(centre_from: str | None) -> Reason:
    """The hand an exchange would take, in words: the spare hand, or the hand a seat left."""
    if centre_from == "spare":
        return Reason("hint.neuf.spare_hand", "the spare hand")
    return Reason("hint.neuf.left_hand", f"the hand {centre_from} left", seat=centre_from)


class NeufIsmcts:
    name = "ismcts"

    def __init__(self, rng: random.Random, iterations: int = DEFAULT_ITERATIONS,
                 exploration: float = DEFAULT_EXPLORATION) -> None:
        self.rng = rng
        self.iterations = iterations
        self.exploration = exploration

    def decide(self, view: NeufView) -> Decision:
        if view.phase == "exchange":
            return self._exchange(view)
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), Reason("hint.only_card_mine", f"{legal[0].pretty} is the only card I may play", card=legal[0]))
        knowledge = NeufKnowledge.from_view(view)
        found = search(
            knowledge.sample_position, FOLLOW_SUIT, result_function(view.form, len(view.seats)), self.rng,
            self.iterations, self.exploration,
        )
        card = ACE_HIGH_CARDS[found.card]
        share = found.value.get(found.card, 0.0) * 13
        return Decision(
            Play(card),
            Reason("hint.neuf.ismcts_play", f"{card.pretty} was tried most in {self.iterations} simulated deals "
                   f"({found.visits[found.card]} times, about {share:.1f} tricks for me)",
                   card=card, deals=self.iterations, times=found.visits[found.card], tricks=round(share, 1)),
        )

    def _exchange(self, view: NeufView) -> Decision:
        knowledge = NeufKnowledge.from_view(view)
        seats = knowledge.seats
        me = knowledge.me
        leader = (seats.index(view.dealer) + 1) % len(seats)
        result = result_function(view.form, len(seats))
        totals = {"keep": 0.0, "exchange": 0.0}
        worlds = max(1, self.iterations // 2)
        for _ in range(worlds):
            hands = knowledge.sample_hands(self.rng)
            for choice in totals:
                dealt = {seat: list(cards) for seat, cards in hands.items()}
                if choice == "exchange":
                    dealt[seats[me]], dealt[EXTRA] = dealt[EXTRA], dealt[seats[me]]
                pos = TrickPosition([dealt[seat] for seat in seats], knowledge.trump, leader)
                FOLLOW_SUIT.playout(pos, self.rng)
                totals[choice] += result(pos)[me]
        keep = 13 * totals["keep"] / worlds
        take = 13 * totals["exchange"] / worlds
        whose = centre_hand(view.centre_from)
        if take > keep:
            return Decision(Exchange(), Reason("hint.neuf.ismcts_exchange", f"in {worlds} simulated deals {whose} made {take:.1f} tricks, mine {keep:.1f}: exchange",
                                                deals=worlds, whose=whose, tricks=round(take, 1), mine=round(keep, 1)))
        return Decision(Keep(), Reason("hint.neuf.ismcts_keep", f"in {worlds} simulated deals my hand made {keep:.1f} tricks, {whose} {take:.1f}: keep",
                                         deals=worlds, whose=whose, tricks=round(take, 1), mine=round(keep, 1)))
