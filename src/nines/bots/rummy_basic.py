"""A sound rule-based Nines rummy player, from its view only.

Cards left in hand cost points when someone goes out, and a player who never opens
pays a flat penalty, so the player opens as soon as it can and then sheds cards:

* draw the top discard when it is wild, fits a set on the table, or joins a run in the
  making in a suit with no run yet (or lies next to the end of that suit's run);
  otherwise draw from the stock;
* swap a natural card that is dead in hand for the wild standing for it on the table;
* lay the longest set it can (using as few wilds as it can), the opening included;
* extend table sets with natural cards; spend a wild on an extension only when the
  hand is nearly gone;
* discard the least useful card: never a wild while anything else will do, dead cards
  before run material, high-scoring cards before low ones.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..cards import Card, Rank
from ..games.rummy import Discard, Draw, Extend, Lay, RummyView, Swap, TableSetView, parse_rummy_action
from ..games.rummy.melds import HIGH_ACE, LOW_ACE
from .base import Decision, Reason

# keep values: how much a card in hand is worth keeping
WILD_VALUE = 1000.0
FITS_TABLE = 60.0
NEXT_TO = 12.0  # a card of the same suit next to it, in a suit free for a new run
ONE_APART = 6.0  # a card of the same suit with one rank between
NEAR_RUN_END = 15.0  # one rank beyond the card a table run wants
SAME_RANK = 3.0  # material for a monkey (two-deck games)
TAKE_DISCARD_AT = 10.0  # take the top discard when it is worth at least this to the hand


def _positions(rank: Rank) -> tuple[int, ...]:
    return (LOW_ACE, HIGH_ACE) if rank is Rank.ACE else (rank.value,)


class RummyBasic:
    name = "basic"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    # -- reading the view ------------------------------------------------------------

    def _is_wild(self, view: RummyView, card: Card) -> bool:
        return card.is_joker or (card.rank is not None and card.rank.char == view.wild_rank)

    def _points(self, view: RummyView, card: Card) -> int:
        if self._is_wild(view, card):
            return 25
        assert card.rank is not None
        if card.rank is Rank.ACE:
            return 15
        return min(card.rank.value, 10)

    def keep_value(self, view: RummyView, card: Card, others: Sequence[Card]) -> float:
        """How much ``card`` is worth keeping beside the ``others`` in hand."""
        if self._is_wild(view, card):
            return WILD_VALUE
        assert card.rank is not None and card.suit is not None
        value = 0.0
        wants = {want for s in view.table for want in s.wants}
        if card in wants:
            value += FITS_TABLE
        run = next((s for s in view.table if s.kind == "run" and s.id == card.suit.value), None)
        mine = _positions(card.rank)
        if run is not None:
            # the suit is claimed: only cards working towards an end of its run are any use
            for pos in mine:
                for end in _wanted_positions(run):
                    if abs(pos - end) == 1:
                        value += NEAR_RUN_END
        else:
            for other in others:
                if other.suit is not card.suit or other.rank is None or self._is_wild(view, other):
                    continue
                gap = min(abs(a - b) for a in mine for b in _positions(other.rank))
                if gap == 1:
                    value += NEXT_TO
                elif gap == 2:
                    value += ONE_APART
        if view.decks == 2:
            value += SAME_RANK * sum(1 for o in others if o.rank is card.rank and o.suit is not card.suit)
        # among equally useless cards, shed the expensive ones first
        return value - self._points(view, card) / 10.0

    # -- deciding --------------------------------------------------------------------

    def decide(self, view: RummyView) -> Decision:
        actions = [parse_rummy_action(text) for text in view.legal]
        if view.phase == "draw":
            return self._draw(view, actions)
        return self._play(view, actions)

    def _draw(self, view: RummyView, actions: Sequence[object]) -> Decision:
        top = view.top_discard
        can_take = Draw("discard") in actions
        if top is not None and can_take:
            worth = self.keep_value(view, top, view.hand)
            if self._is_wild(view, top):
                return Decision(Draw("discard"), Reason("hint.rummy.take_wild_pile", f"take the wild {top.code} from the discard pile", card=top))
            if worth >= TAKE_DISCARD_AT or Draw("stock") not in actions:
                return Decision(Draw("discard"), Reason("hint.rummy.fits", f"{top.code} fits my hand or the table: take it", card=top))
        return Decision(Draw("stock"), Reason("hint.rummy.nothing_useful", "nothing useful on the discard pile: draw from the stock"))

    def _play(self, view: RummyView, actions: Sequence[object]) -> Decision:
        hand = list(view.hand)
        held = list(view.held.get(view.seat or "", ()))
        playable = _minus(hand, held)
        opened = view.seat in view.opened

        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps:
            # a natural card whose place on the table a wild already takes is dead in hand
            swap = min(swaps, key=str)
            return Decision(swap, Reason("hint.rummy.swap_standing", f"swap {swap.card.code} for the wild standing for it in set {swap.set_id}",
                                         card=swap.card, set=swap.set_id))

        lays = [a for a in actions if isinstance(a, Lay)]
        if lays:
            lay = max(lays, key=lambda a: self._lay_score(view, a))
            worth = self._lay_score(view, lay)
            if not opened or worth > 0:
                what = "open with" if not opened else "lay"
                placements = [p.text for p in lay.placements]
                return Decision(lay, Reason("hint.rummy.lay" if opened else "hint.rummy.open", f"{what} {' '.join(placements)}",
                                            placements=placements))

        extends = [a for a in actions if isinstance(a, Extend)]
        natural = [a for a in extends if a.placement.is_natural]
        if natural:
            extend = min(natural, key=str)
            return Decision(extend, Reason("hint.rummy.add", f"add {extend.placement.text} to set {extend.set_id}",
                                            placements=[extend.placement.text], set=extend.set_id))
        if extends and len(playable) <= 3:
            extend = min(extends, key=str)
            return Decision(extend, Reason("hint.rummy.spend_wild", f"nearly out: spend a wild, {extend.placement.text}, on set {extend.set_id}",
                                            placements=[extend.placement.text], set=extend.set_id))

        return self._discard(view, actions, playable)

    def _lay_score(self, view: RummyView, lay: Lay) -> float:
        wild_uses = sum(1 for p in lay.placements if not p.is_natural)
        naturals = len(lay.placements) - wild_uses
        # a set made mostly of wilds wastes them; the opening is worth almost any set
        return naturals * 10.0 + len(lay.placements) - wild_uses * 6.0

    def _discard(self, view: RummyView, actions: Sequence[object], playable: list[Card]) -> Decision:
        discards = [a for a in actions if isinstance(a, Discard)]
        assert discards, "a turn always ends with a discard"

        def cost(action: Discard) -> tuple[float, float]:
            others = _minus(playable, [action.card])
            return (self.keep_value(view, action.card, others), self.rng.random())

        choice = min(discards, key=cost)
        if len(view.hand) == 1:
            return Decision(choice, Reason("hint.rummy.go_out", f"discard my last card, {choice.card.code}, and go out", card=choice.card))
        return Decision(choice, Reason("hint.rummy.spare", f"discard {choice.card.code}, the card I can best spare", card=choice.card))


def _wanted_positions(run: TableSetView) -> list[int]:
    """Run positions (1 low ace .. 14 high ace) of the cards that would extend ``run``."""
    has_two = any(c.stands_for.rank is Rank.TWO for c in run.cards)
    out = []
    for want in run.wants:
        assert want.rank is not None
        if want.rank is Rank.ACE:
            out.append(LOW_ACE if has_two else HIGH_ACE)
        else:
            out.append(want.rank.value)
    return out


def _minus(cards: Iterable[Card], remove: Iterable[Card]) -> list[Card]:
    out = list(cards)
    for card in remove:
        if card in out:
            out.remove(card)
    return out


__all__ = ["RummyBasic"]
