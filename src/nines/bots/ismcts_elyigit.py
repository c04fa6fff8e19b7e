"""The ``ismcts`` player for Elyigit's Nines: SO-ISMCTS with random playouts.

Card play is :func:`nines.bots.ismcts.search` (350 simulations a move) over worlds
dealt by :class:`~nines.bots.elyigit_worlds.ElyigitKnowledge`, which respects
everything the compulsory rule revealed.  A side's result is 1 when it reaches its
target (the contract, or the tricks that defeat it) and 0 otherwise: the deal's
outcome, which is all the scoring rewards.  The declarer searches for the dummy too.

The auction and the trump are decided by comparing simulated outcomes: the unseen
hands are dealt at random, the deal is played out at random with this player as
declarer under each trump, and the bid (or trump) with the best expected score is
chosen; it passes when no contract above the standing bid is expected to gain.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import Card, Suit
from ..games.elyigit import Bid, ElyigitView, NameTrump, Pass
from ..games.elyigit.options import left_of, partner_of, side_of
from ..games.tricks import Play
from .base import Decision, Reason
from .elyigit_worlds import ElyigitKnowledge, compulsory_for
from .ismcts import DEFAULT_EXPLORATION, DEFAULT_ITERATIONS, search
from .tricksim import ACE_LOW_CARDS, NO_TRUMP, TrickPosition, TrickRules


def stop_rule(view: ElyigitView, declarer: str, bid: int) -> Callable[[TrickPosition], bool]:
    """Play stops once a side has its target, never before ``min_tricks`` (unless played out)."""
    seats = list(view.seats)
    a, b = seats.index(declarer), seats.index(partner_of(declarer))
    min_tricks, play_out, defenders = view.min_tricks, view.play_out, 10 - bid

    def stop(pos: TrickPosition) -> bool:
        if play_out or pos.tricks_played < min_tricks:
            return False
        declarers = pos.won[a] + pos.won[b]
        return declarers >= bid or pos.tricks_played - declarers >= defenders

    return stop


def contract_value(tricks: list[int], bid: int) -> float:
    """Expected score difference of a contract of ``bid`` when the side makes ``tricks`` (samples).

    Made, the declarers score the bid; defeated, the defenders score the bid and one more.
    """
    made = sum(1 for t in tricks if t >= bid) / len(tricks)
    return made * bid - (1 - made) * (bid + 1)


def trump_options(view: ElyigitView) -> list[Suit | None]:
    """The trumps a declarer may name at this table (no trumps only where the options allow)."""
    return [*Suit, None] if view.no_trumps else list(Suit)


def trump_name(suit: Suit | None) -> Reason:
    if suit is None:
        return Reason("hint.elyigit.no_trumps", "no trumps")
    return Reason("hint.elyigit.trumps", f"{suit.name.lower()} trumps", suit=suit)


PLAYOUTS = Reason("hint.how.playouts", "in random play-outs")


def solved_exactly(deals: int) -> Reason:
    """How a search player knows: the likely deals it solved exactly."""
    return Reason("hint.how.solved", f"in {deals} likely deals solved exactly", deals=deals)


def simulate_contracts(
    view: ElyigitView, worlds: list[dict[str, list[int]]], rng: random.Random,
    solve: Callable[[dict[str, list[int]], int, str], int] | None = None,
    declarer: str | None = None,
) -> dict[Suit | None, list[int]]:
    """Tricks ``declarer``'s side (by default this seat's) takes under each trump, in each sampled deal.

    ``solve(hands, trump, declarer)`` evaluates a deal; by default it is played out at random.
    """
    me = declarer or view.seat
    assert me is not None
    seats = list(view.seats)
    rules = TrickRules(compulsory_for(view).legal)
    out: dict[Suit | None, list[int]] = {suit: [] for suit in trump_options(view)}
    for hands in worlds:
        for suit, counts in out.items():
            index = NO_TRUMP if suit is None else suit.index
            if solve is not None:
                counts.append(solve(hands, index, me))
                continue
            pos = TrickPosition([list(hands[s]) for s in seats], index, seats.index(left_of(me)))
            rules.playout(pos, rng)
            counts.append(pos.won[seats.index(me)] + pos.won[seats.index(partner_of(me))])
    return out


def choose_call(
    view: ElyigitView, tricks: dict[Suit | None, list[int]], how: Reason, standing: float | None = None,
    value_of: Callable[[list[int], int], float] = contract_value,
) -> Decision:
    """Bid the contract with the best expected score above the standing bid, or pass.

    ``standing`` is what passing is expected to score for this side (the standing
    contract played out: positive when partner holds it, negative when the opponents
    would make theirs).  Without it, a player passes whenever its partner holds the
    contract and otherwise bids any contract worth more than nothing.  ``value_of``
    values a contract from the side's tricks in the sampled deals (:func:`contract_value`).
    """
    me = view.seat
    high = view.high_bid
    legal_bids = [int(text.split()[1]) for text in view.legal if text.startswith("bid")]
    partner_holds = view.high_bidder is not None and side_of(view.high_bidder) == side_of(me or "")
    if partner_holds and standing is None:
        return Decision(Pass(), Reason("hint.elyigit.partner_holds", f"my partner holds the contract at {high}: pass", bid=high))
    passing = 0.0 if standing is None else standing
    best: tuple[float, int, Suit | None] | None = None
    for bid in legal_bids:
        for suit, counts in tricks.items():
            value = value_of(counts, bid)
            if best is None or value > best[0]:
                best = (value, bid, suit)
    if best is None or best[0] <= passing:
        if standing is None or view.high_bidder is None:
            if not high:
                return Decision(Pass(), Reason("hint.elyigit.none_pays", f"no contract pays on average {how}: pass", how=how))
            return Decision(Pass(), Reason("hint.elyigit.none_above_pays", f"no contract above {high} pays on average {how}: pass",
                                           bid=high, how=how))
        whose = "my partner's" if partner_holds else "their"
        return Decision(Pass(), Reason(
            "hint.elyigit.partner_worth" if partner_holds else "hint.elyigit.theirs_worth",
            f"{whose} {high} is worth {standing:+.1f} to us {how}, more than any bid of mine: pass",
            bid=high, worth_delta=round(standing, 1), how=how,
        ))
    value, bid, suit = best
    made = sum(1 for t in tricks[suit] if t >= bid) / len(tricks[suit])
    return Decision(Bid(bid), Reason("hint.elyigit.bid", f"{bid} with {trump_name(suit)} is made {100 * made:.0f}% of the time {how}: bid {bid}",
                                       bid=bid, trumps=trump_name(suit), percent=round(100 * made), how=how))


def choose_trump(view: ElyigitView, tricks: dict[Suit | None, list[int]], how: Reason) -> Decision:
    """Name the trump that makes the contract most often (then the most tricks)."""
    bid = view.contract or view.high_bid or view.min_bid

    def made(suit: Suit | None) -> tuple[float, float]:
        counts = tricks[suit]
        return (sum(1 for t in counts if t >= bid) / len(counts), sum(counts) / len(counts))

    suit = max(tricks, key=made)
    rate, mean = made(suit)
    return Decision(NameTrump(suit), Reason("hint.elyigit.trump", f"{trump_name(suit)} make {bid} {100 * rate:.0f}% of the time {how} "
                                            f"({mean:.1f} tricks on average)", trumps=trump_name(suit), bid=bid,
                                            percent=round(100 * rate), how=how, tricks=round(mean, 1)))


class ElyigitIsmcts:
    name = "ismcts"

    def __init__(self, rng: random.Random, iterations: int = DEFAULT_ITERATIONS,
                 exploration: float = DEFAULT_EXPLORATION) -> None:
        self.rng = rng
        self.iterations = iterations
        self.exploration = exploration

    def decide(self, view: ElyigitView) -> Decision:
        if view.phase in ("auction", "trump"):
            knowledge = ElyigitKnowledge.from_view(view)
            worlds = [knowledge.sample_hands(self.rng) for _ in range(max(1, self.iterations // 4))]
            tricks = simulate_contracts(view, worlds, self.rng)
            if view.phase == "auction":
                return choose_call(view, tricks, PLAYOUTS)
            return choose_trump(view, tricks, PLAYOUTS)
        return self._play(view)

    def _play(self, view: ElyigitView) -> Decision:
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), Reason("hint.only_card", f"{legal[0].pretty} is the only card the rule allows", card=legal[0]))
        knowledge = ElyigitKnowledge.from_view(view)
        assert view.declarer is not None and view.contract is not None
        rules = TrickRules(compulsory_for(view).legal, stop_rule(view, view.declarer, view.contract))
        found = search(knowledge.sample_position, rules, deal_result(view), self.rng, self.iterations, self.exploration)
        card = ACE_LOW_CARDS[found.card]
        rate = found.value.get(found.card, 0.0)
        return Decision(
            Play(card),
            Reason("hint.elyigit.ismcts_play", f"{card.pretty} was tried most in {self.iterations} simulated deals "
                   f"(our side reached its target in {100 * rate:.0f}% of them)",
                   card=card, deals=self.iterations, percent=round(100 * rate)),
        )


def deal_result(view: ElyigitView) -> Callable[[TrickPosition], list[float]]:
    """Each seat's result at the end of play: 1 if its side reached its target, else 0."""
    seats = list(view.seats)
    assert view.declarer is not None and view.contract is not None
    declaring = side_of(view.declarer)
    bid = view.contract
    decl_seats = [i for i, s in enumerate(seats) if side_of(s) == declaring]

    def result(pos: TrickPosition) -> list[float]:
        declarers = sum(pos.won[i] for i in decl_seats)
        made = 1.0 if declarers >= bid else 0.0
        return [made if i in decl_seats else 1.0 - made for i in range(len(seats))]

    return result
