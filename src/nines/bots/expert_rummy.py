"""The ``expert`` Nines rummy player: hand planning, a look one draw ahead, and the opponents' hands sampled.

Rummy has no exact solver, so the expert judges a hand by its plan
(:mod:`nines.bots.rummy_plan`): how many of its cards cannot be fitted into runs.
Each of those needs a turn to discard, and costs points if someone goes out first.
From its view it also knows every card that is not in the stock or an opponent's
hand (its own, the table, the discard pile, the indicator) and which cards each
opponent is known to hold (taken from the discard pile, or a wild taken in a swap).

* **Drawing**: the top discard is worth what the hand can be made of with it (after
  the best discard); the stock is worth the same averaged over every unseen card it
  might turn up.  The better is taken.
* **Set plays**: a lay, extension or swap is made when the hand it leaves is no
  worse planned (and it is smaller, or its wilds more useful); the best such play
  first, until none is left.
* **Discarding**: each card is judged by the plan of the hand without it averaged
  over the next draw (so cards that may still join a run are kept), by its points
  when an opponent is close to going out, and by the danger of feeding an opponent:
  opponents' hands are sampled from the unseen cards (with the cards they are known
  to hold), and a card that would shorten their plans in many samples is held back.

The budget (opponent hands sampled) is a number, so a seeded match replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..cards import Card, Rank, deck_54, parse_card
from ..games.rummy import Discard, Draw, Extend, Lay, RummyView, Swap, parse_rummy_action
from .base import Decision, Reason
from .rummy_plan import HIGH_ACE, LOW_ACE, TableRun, plan


@dataclass(frozen=True)
class RummyBudget:
    opponent_samples: int = 12
    """Opponent hands sampled to judge how much a discard would help them."""
    danger_weight: float = 0.6
    """Dead cards a discard is worth avoiding when it surely helps an opponent."""


OPENING_PENALTY = 3.0
"""What not yet holding an opening set (a run of four) is worth, in unplaced cards."""


def _card_of(text: str) -> Card:
    """The card in ``9H`` or ``JK=9H`` (the card itself, not what it stands for)."""
    return parse_card(text.split("=")[0])


class RummyReading:
    """What the view says, in the terms the plan needs.

    What the stock may turn up and what the opponents may hold are asked of the reading
    (:meth:`stock_draws`, :meth:`next_draws`, :meth:`opponent_hands`): from a view they
    are guesses over the unseen cards; the rummy oracle's reading, which sees every card,
    answers them exactly and the expert's judgement stays the same.
    """

    def __init__(self, view: RummyView) -> None:
        assert view.seat is not None
        self.view = view
        self.me = view.seat
        wild_rank = Rank.parse(view.wild_rank)
        self.is_wild: Callable[[Card], bool] = lambda card: card.rank is None or card.rank is wild_rank
        self.opened = view.seat in view.opened
        self.table = self._table_runs(view)
        self.known = self._known_opponent_cards(view)
        self.unseen = self._unseen(view)
        others = [s for s in view.seats if s != view.seat]
        self.opponents = others
        smallest = min((view.hand_sizes[s] for s in others), default=9)
        # how likely the hand is to end before this player can shed much
        self.risk = 0.6 if smallest <= 2 else 0.3 if smallest <= 4 else 0.1

    @staticmethod
    def _table_runs(view: RummyView) -> dict[int, TableRun]:
        runs: dict[int, TableRun] = {}
        for table_set in view.table:
            if table_set.kind != "run":
                continue
            ranks = [p.stands_for.rank for p in table_set.cards]
            low_ace = Rank.TWO in ranks
            spots = [
                (LOW_ACE if low_ace else HIGH_ACE) if rank is Rank.ACE else rank.value  # type: ignore[union-attr]
                for rank in ranks
            ]
            suit = table_set.cards[0].stands_for.suit
            assert suit is not None
            runs[suit.index] = TableRun(suit.index, min(spots), max(spots))
        return runs

    @staticmethod
    def _known_opponent_cards(view: RummyView) -> dict[str, Counter[Card]]:
        known: dict[str, Counter[Card]] = {s: Counter() for s in view.seats if s != view.seat}
        for move in view.moves:
            if move.seat == view.seat:
                continue
            cards = known[move.seat]
            if move.drew is not None:
                cards[move.drew] += 1
            words = move.action.split()
            if words[0] == "discard" or words[0] == "lay":
                gone = [_card_of(w) for w in words[1:]]
            elif words[0] in ("extend", "swap"):
                gone = [_card_of(words[2])]
            else:
                gone = []
            for card in gone:
                if cards[card] > 0:
                    cards[card] -= 1
            if move.took is not None:
                cards[move.took] += 1
        for seat, held in view.held.items():
            if seat != view.seat:
                for card in held:
                    if known[seat][card] == 0:
                        known[seat][card] += 1
        return {seat: +cards for seat, cards in known.items()}

    def _unseen(self, view: RummyView) -> Counter[Card]:
        pool: Counter[Card] = Counter()
        for _ in range(view.decks):
            pool.update(deck_54())
        seen = list(view.hand) + list(view.discard_pile) + [view.indicator]
        seen += [p.card for table_set in view.table for p in table_set.cards]
        for cards in self.known.values():
            seen += list(cards.elements())
        pool.subtract(seen)
        return +pool

    def dead(self, hand: Sequence[Card], table: dict[int, TableRun] | None = None, opened: bool | None = None) -> float:
        """Cards the hand cannot place, as if it had opened, and a penalty while it cannot open."""
        runs = self.table if table is None else table
        placed = plan(hand, self.is_wild, runs, True)
        if self.opened if opened is None else opened:
            return placed.dead
        return placed.dead + (0.0 if plan(hand, self.is_wild, runs, False).can_open else OPENING_PENALTY)

    def points(self, card: Card) -> int:
        if self.is_wild(card):
            return 25
        assert card.rank is not None
        return 15 if card.rank is Rank.ACE else min(card.rank.value, 10)

    # -- what is not seen: guessed from the view ------------------------------------------

    def stock_draws(self) -> Counter[Card]:
        """The cards a stock draw may turn up now, with their weights: every unseen card."""
        return self.unseen

    def next_draws(self, discard: Card) -> Counter[Card]:
        """The cards this player's next stock draw may turn up once it has thrown ``discard``."""
        return _next_draws(self)

    def opponent_hands(self, rng: random.Random, samples: int) -> Iterator[tuple[list[Card], bool, float]]:
        """Hands the opponents may hold, as (hand, opened, weight), the weights adding up to one.

        ``samples`` hands per opponent: the cards it is known to hold, the rest drawn
        from the unseen cards.
        """
        pool = list(self.unseen.elements())
        if not pool or samples <= 0:
            return
        for seat in self.opponents:
            known = list(self.known[seat].elements())
            missing = max(0, self.view.hand_sizes[seat] - len(known))
            opened = seat in self.view.opened
            for _ in range(samples):
                hand = known + rng.sample(pool, min(missing, len(pool)))
                yield hand, opened, 1.0 / (samples * len(self.opponents))

    def stock_note(self, value: float) -> str:
        """How the draw explains what the stock is worth."""
        return Reason("hint.rummy.stock_average", f"the stock {value:.1f} on average", average=round(value, 1))

    def danger_note(self, share: float) -> str:
        """How the discard explains that a card would help an opponent."""
        return Reason("hint.rummy.helps_opponent", f"; it helps an opponent in {100 * share:.0f}% of sampled hands",
                      percent=round(100 * share))


def without(cards: Sequence[Card], remove: Sequence[Card]) -> list[Card]:
    out = list(cards)
    for card in remove:
        out.remove(card)
    return out


def _next_draws(reading: RummyReading) -> Counter[Card]:
    """The cards the next stock draw may turn up: the unseen cards.

    When every unseen card is accounted for (the stock is empty and the opponents'
    cards are known), the stock will be rebuilt from the discard pile under the card
    about to be thrown: RULES.md, "The stock running out".
    """
    return reading.unseen or Counter(reading.view.discard_pile)


@dataclass(frozen=True)
class SetPlay:
    """A lay, extension or swap, with the hand and table runs it leaves and what the hint says of it."""

    action: object
    hand: list[Card]
    table: dict[int, TableRun]
    move: str
    """The play in words (``lay 5H 6H 7H``)."""
    reason: Reason


class RummyExpert:
    name = "expert"

    def __init__(self, rng: random.Random, budget: RummyBudget | None = None) -> None:
        self.rng = rng
        self.budget = budget or RummyBudget()

    def decide(self, view: RummyView) -> Decision:
        return self.decide_reading(RummyReading(view))

    def decide_reading(self, reading: RummyReading) -> Decision:
        """Decide from a reading of the view (the rummy oracle passes one that sees every card)."""
        view = reading.view
        actions = [parse_rummy_action(text) for text in view.legal]
        if view.phase == "draw":
            return self._draw(reading, actions)
        return self._play(reading, actions)

    # -- drawing -----------------------------------------------------------------------

    @staticmethod
    def _after_best_discard(reading: RummyReading, hand: list[Card]) -> float:
        """The hand's judgement once it has thrown its most useless card.

        Throwing a card the plan cannot place leaves the plan as it was, one card
        shorter; no single card's loss can do better.
        """
        placed = plan(hand, reading.is_wild, reading.table, True)
        value = float(max(0, placed.dead - 1))
        if not reading.opened and not plan(hand, reading.is_wild, reading.table, False).can_open:
            value += OPENING_PENALTY
        return value

    def _draw(self, reading: RummyReading, actions: Sequence[object]) -> Decision:
        view = reading.view
        hand = list(view.hand)
        top = view.top_discard
        if Draw("discard") not in actions or top is None:
            return Decision(Draw("stock"), Reason("hint.rummy.only_stock", "only the stock can be drawn"))
        if Draw("stock") not in actions:
            return Decision(Draw("discard"), Reason("hint.rummy.only_pile", "only the discard pile can be drawn"))
        if reading.is_wild(top):
            return Decision(Draw("discard"), Reason("hint.rummy.take_wild", f"take the wild {top.code}", card=top))
        with_top = self._after_best_discard(reading, hand + [top])
        pool = reading.stock_draws()
        total = sum(pool.values())
        expected = sum(n * self._after_best_discard(reading, hand + [card]) for card, n in pool.items()) / total
        stock = reading.stock_note(expected)
        if with_top < expected:
            return Decision(Draw("discard"), Reason("hint.rummy.planner_take", f"{top.code} leaves {with_top:.1f} unplaced cards, {stock}: take it",
                                                       card=top, unplaced=round(with_top, 1), stock=stock))
        return Decision(Draw("stock"), Reason("hint.rummy.planner_draw", f"{top.code} leaves {with_top:.1f} unplaced cards, {stock}: draw",
                                                 card=top, unplaced=round(with_top, 1), stock=stock))

    # -- set plays and the discard -------------------------------------------------------

    def _play(self, reading: RummyReading, actions: Sequence[object]) -> Decision:
        hand = list(reading.view.hand)
        for play in self._set_plays(reading, actions, hand):
            if self._worth_making(reading, hand, play):
                return Decision(play.action, play.reason)  # type: ignore[arg-type]
        return self._discard(reading, [a for a in actions if isinstance(a, Discard)], hand)

    def _set_plays(self, reading: RummyReading, actions: Sequence[object], hand: list[Card]) -> list[SetPlay]:
        """The set plays that leave the hand no worse planned, best first (fewest unplaced cards, then
        the smallest hand, then the fewest wilds put on the table)."""
        current = (reading.dead(hand), len(hand))
        plays: list[tuple[tuple[float, int, int], int, SetPlay]] = []
        for i, action in enumerate(actions):
            if isinstance(action, Discard):
                continue
            after = self._after(reading, hand, action)
            if after is None:
                continue
            new_hand, table, wilds_laid, text = after
            score = (reading.dead(new_hand, table, True), len(new_hand), wilds_laid)
            # Opening is always taken: until then a hand that ends costs the flat penalty,
            # and table runs cannot be extended.
            better = (score[0], score[1]) < current or (not reading.opened and isinstance(action, Lay))
            if better:
                (dead, size, _) = score
                said = Reason("hint.rummy.planner_play", f"{text}: {size} cards left, {dead:.0f} of them not yet placed",
                              move=text, left=size, unplaced=round(dead))
                plays.append((score, i, SetPlay(action, new_hand, table, text, said)))
        plays.sort(key=lambda item: item[:2])
        return [play for _, _, play in plays]

    def _worth_making(self, reading: RummyReading, hand: list[Card], play: SetPlay) -> bool:
        """Whether to make a set play the plan finds no worse: the planner makes every one."""
        return True

    @staticmethod
    def _after(
        reading: RummyReading, hand: list[Card], action: object
    ) -> tuple[list[Card], dict[int, TableRun], int, str] | None:
        """The hand and table after a set play, the wilds it puts on the table, and a description."""
        table = dict(reading.table)
        if isinstance(action, Lay):
            cards = [p.card for p in action.placements]
            spots = []
            for p in action.placements:
                rank = p.stands_for.rank
                assert rank is not None
                spots.append(rank.value)
            suits = {p.stands_for.suit for p in action.placements}
            if len(suits) != 1:  # a monkey: not planned for, judged by the cards it sheds
                new_hand = without(hand, cards)
                placements = [p.text for p in action.placements]
                lay = Reason("hint.rummy.lay", f"lay {' '.join(placements)}", placements=placements)
                return new_hand, table, sum(1 for p in action.placements if not p.is_natural), lay
            suit = suits.pop()
            assert suit is not None
            if 1 in spots and 2 not in spots:
                spots = [HIGH_ACE if s == 1 else s for s in spots]
            table[suit.index] = TableRun(suit.index, min(spots), max(spots))
            wilds = sum(1 for p in action.placements if not p.is_natural)
            verb = "open with" if not reading.opened else "lay"
            placements = [p.text for p in action.placements]
            text = Reason("hint.rummy.lay" if reading.opened else "hint.rummy.open", f"{verb} {' '.join(placements)}",
                          placements=placements)
            return without(hand, cards), table, wilds, text
        if isinstance(action, Extend):
            target = action.placement.stands_for
            if target.suit is not None and target.suit.index in table and action.set_id == target.suit.value:
                run = table[target.suit.index]
                assert target.rank is not None
                spot = target.rank.value
                if target.rank is Rank.ACE:
                    spot = LOW_ACE if run.low == 2 else HIGH_ACE
                table[target.suit.index] = TableRun(run.suit, min(run.low, spot), max(run.high, spot))
            wild = 0 if action.placement.is_natural else 1
            add = Reason("hint.rummy.add", f"add {action.placement.text} to set {action.set_id}",
                         placements=[action.placement.text], set=action.set_id)
            return without(hand, [action.placement.card]), table, wild, add
        if isinstance(action, Swap):
            taken = next(
                (p.card for s in reading.view.table if s.id == action.set_id for p in s.cards
                 if p.wild and p.stands_for == action.card),
                None,
            )
            if taken is None:
                return None
            swap = Reason("hint.rummy.swap", f"swap {action.card.code} for the wild {taken.code}", card=action.card, wild_card=taken)
            return without(hand, [action.card]) + [taken], table, -1, swap
        return None

    def _discard(self, reading: RummyReading, discards: list[Discard], hand: list[Card]) -> Decision:
        assert discards, "a turn always ends with a discard"
        if len(hand) == 1:
            card = discards[0].card
            return Decision(discards[0], Reason("hint.rummy.go_out", f"discard my last card, {card.code}, and go out", card=card))
        danger = self._danger(reading, [d.card for d in discards])
        scored = []
        for action in discards:
            card = action.card
            rest = without(hand, [card])
            # the hand without it, one draw later (the best discard then made)
            pool = reading.next_draws(card)
            total = sum(pool.values())
            if total:
                ahead = sum(n * self._after_best_discard(reading, rest + [c]) for c, n in pool.items()) / total
            else:
                ahead = reading.dead(rest)
            value = ahead + self.budget.danger_weight * danger[card] - reading.risk * reading.points(card) / 8.0
            scored.append((value, reading.points(card) * -1, card.code, action))
        scored.sort(key=lambda item: item[:3])
        value, _, _, action = scored[0]
        card = action.card
        helps = danger[card]
        if helps > 0.2:
            note = reading.danger_note(helps)
            return Decision(action, Reason("hint.rummy.best_placed_note", f"discard {card.code}: the rest stays best placed for "
                                           f"the next draw{note}", card=card, note=note))
        return Decision(action, Reason("hint.rummy.best_placed", f"discard {card.code}: the rest stays best placed for the next draw",
                                       card=card))

    def _danger(self, reading: RummyReading, candidates: list[Card]) -> dict[Card, float]:
        """For each card, the share of the opponents' possible hands it would help (fewer unplaced cards)."""
        danger = dict.fromkeys(candidates, 0.0)
        for hand, opened, weight in reading.opponent_hands(self.rng, self.budget.opponent_samples):
            base = plan(hand, reading.is_wild, reading.table, opened).dead
            for card in candidates:
                if fits_hand(reading, hand, opened, card, base) and not reading.is_wild(card):
                    # taking it and throwing a dead card would leave them one closer
                    danger[card] += weight
        return danger


def fits_hand(reading: RummyReading, hand: list[Card], opened: bool, card: Card, base: int | None = None) -> bool:
    """Whether ``card`` fits ``hand``: with it the hand has no more unplaced cards (``base``: without it)."""
    if base is None:
        base = plan(hand, reading.is_wild, reading.table, opened).dead
    return plan(hand + [card], reading.is_wild, reading.table, opened).dead <= base


__all__ = ["RummyBudget", "RummyExpert", "RummyReading", "SetPlay", "fits_hand", "without"]
