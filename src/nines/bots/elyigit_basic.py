"""A sound rule-based player of Elyigit's Nines, from its view only.

What the seed says wins here guides it: a void is the most valuable thing in a hand
and a nine is next, because compulsory ruffing turns every void into trump tricks;
long suits are worth little.  So it values a hand by its nines, its high trumps and
its voids backed by trumps, bids one step at a time while its side can make the
contract, and names the suit that makes its hand strongest.

In play it keeps track of what the compulsory rule reveals: a player who does not
follow suit is void in it, a player who follows without beating the best card of the
suit holds no higher one, a player who trumps low holds no higher trump.  With that it
wins tricks as cheaply as it can, lets a partner's safe trick stand, cashes cards
nobody can beat, and leads suits its partner (or its dummy) will ruff.  As declarer it
plays the dummy's cards when its view says the dummy is to play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import SUITS, Card, Suit, ace_low, deck_36
from ..games.elyigit import Bid, ElyigitView, NameTrump, Pass, PlayRules, legal_plays, trick_winner
from ..games.elyigit.options import partner_of, side_of
from ..games.tricks import Play, parse_trump
from .base import Decision, Reason

# What a hand is worth in tricks.  Fitted on 600 deals played out by this player in
# every seat with a contract of five: the declaring side took about
# 0.1 + 1.1 * (declarer's estimate) + 1.1 * (dummy's estimate) tricks (residual spread
# about one trick), an unseen partner's hand being worth about 2.2 of them.
NINE_SIDE = 0.85
NINE_TRUMP = 1.0
EIGHT_TRUMP = 0.75
SEVEN_TRUMP = 0.5
LOW_TRUMP = 0.3
EIGHT_SIDE_GUARDED = 0.35
VOID_PER_TRUMP = 0.55
SINGLETON = 0.2
SIDE_SCALE = 1.1
SIDE_BASE = 0.1
PARTNER_UNSEEN = 2.2  # an unseen partner who has not spoken
PARTNER_PASSED = 1.9  # a partner who passed when they could have bid
PARTNER_BID_CAP = 3.2  # what a partner's first bid can promise at most
# Bid while the side's expected tricks reach the bid less this: a contract is worth
# bidding when it is made a little more often than not (made: the bid; defeated: the
# bid and more to the opponents).
BID_SLACK = 0.3


def _strength(card: Card) -> int:
    assert card.rank is not None
    return ace_low(card.rank)


def estimate_tricks(hand: Iterable[Card], trump: Suit | None) -> float:
    """A rough count of the tricks a hand brings its side with ``trump`` as trumps."""
    cards = list(hand)
    lengths = Counter(card.suit for card in cards)
    trumps = sorted((c for c in cards if c.suit == trump), key=_strength, reverse=True)
    total = 0.0
    for card in cards:
        rank = _strength(card)
        if card.suit == trump:
            continue
        if rank == 9:
            total += NINE_SIDE
        elif rank == 8 and lengths[card.suit] >= 2:
            total += EIGHT_SIDE_GUARDED
    for card in trumps:
        rank = _strength(card)
        total += {9: NINE_TRUMP, 8: EIGHT_TRUMP, 7: SEVEN_TRUMP}.get(rank, LOW_TRUMP)
    if trump is not None:
        # A void guarantees ruffing (ruffing is compulsory): each void is worth its
        # share of the trumps that will be spent on it.
        spare_trumps = len(trumps)
        for suit in SUITS:
            if suit == trump:
                continue
            if lengths[suit] == 0 and spare_trumps:
                used = min(spare_trumps, 2)
                total += VOID_PER_TRUMP * used
                spare_trumps -= used
            elif lengths[suit] == 1 and spare_trumps:
                total += SINGLETON
    return total


def best_trump(hand: Sequence[Card], no_trumps: bool = False) -> tuple[Suit | None, float]:
    """The trump that makes ``hand`` strongest, and its estimate (ties: the longer suit)."""
    lengths = Counter(card.suit for card in hand)
    choices: list[Suit | None] = list(SUITS) + ([None] if no_trumps else [])
    scored = [(estimate_tricks(hand, t), lengths[t] if t else 0, -i, t) for i, t in enumerate(choices)]
    estimate, _, _, trump = max(scored)
    return trump, estimate


class _Table:
    """What the view lets the player know about where the unseen cards can be."""

    def __init__(self, view: ElyigitView) -> None:
        self.view = view
        self.trump = parse_trump(view.trump) if view.trump else None
        self.rules: PlayRules = view.play_rules
        me = view.to_act or view.seat
        assert me is not None
        self.me: str = me
        self.hand = list(view.hand if self.me == view.seat else (view.dummy_hand or ()))
        played: list[Card] = []
        for trick in view.tricks_played:
            played += [Card.parse(code) for _, code in trick.plays]
        self.current = [(seat, Card.parse(code)) for seat, code in (view.trick.plays if view.trick else ())]
        played += [card for _, card in self.current]
        self.played = set(played)
        known: dict[str, set[Card]] = {}
        if view.seat is not None:
            known[view.seat] = set(view.hand)
        if view.dummy is not None and view.dummy_hand is not None:
            known[view.dummy] = set(view.dummy_hand)
        self.known = known
        seen = self.played | set().union(*known.values()) if known else set(self.played)
        self.unseen = {card for card in deck_36() if card not in seen}
        self.cannot: dict[str, set[Card]] = {seat: set() for seat in view.seats}
        self._infer()

    def _infer(self) -> None:
        """The compulsory rule makes plays speak: holding a card that would have made
        the card played illegal is impossible (adding cards only narrows the legal set)."""
        tricks = [[(s, Card.parse(c)) for s, c in t.plays] for t in self.view.tricks_played] + [self.current]
        for plays in tricks:
            for i, (seat, card) in enumerate(plays):
                if seat in self.known or i == 0:
                    continue
                prefix = [c for _, c in plays[:i]]
                led = prefix[0].suit
                for other in self.unseen:
                    if other.suit not in (led, self.trump) or other in self.cannot[seat]:
                        continue
                    if card not in legal_plays([card, other], prefix, self.trump, self.rules):
                        self.cannot[seat].add(other)

    def may_hold(self, seat: str) -> set[Card]:
        if seat in self.known:
            return {c for c in self.known[seat] if c not in self.played}
        return {c for c in self.unseen if c not in self.cannot[seat]}

    def after_me(self) -> list[str]:
        """Seats still to play to this trick after the one now playing."""
        seats = list(self.view.seats)
        start = seats.index(self.me)
        count = len(self.view.seats) - len(self.current) - 1
        return [seats[(start + k) % 4] for k in range(1, count + 1)]

    def could_beat(self, seat: str, trick: list[Card]) -> bool:
        """Whether ``seat`` might play a card that takes ``trick`` as it stands."""
        holding = self.may_hold(seat)
        if not holding:
            return False
        led = trick[0].suit
        winner = trick[trick_winner(trick, self.trump)]
        has_led = any(c.suit == led for c in holding)
        if seat in self.known:
            options = legal_plays(holding, trick, self.trump, self.rules)
            return any(trick_winner(trick + [c], self.trump) == len(trick) for c in options)
        if has_led:
            # Assume a seat that may still hold the suit follows it.
            return winner.suit == led and any(c.suit == led and _strength(c) > _strength(winner) for c in holding)
        if self.trump is None:
            return False
        if winner.suit == self.trump:
            return any(c.suit == self.trump and _strength(c) > _strength(winner) for c in holding)
        return any(c.suit == self.trump for c in holding)

    def is_master(self, card: Card) -> bool:
        """No card of its suit that an opponent may hold beats it."""
        return not any(
            c.suit == card.suit and _strength(c) > _strength(card) for s in self.opponents() for c in self.may_hold(s)
        )

    def opponents(self) -> list[str]:
        return [s for s in self.view.seats if side_of(s) != side_of(self.me)]

    def void_with_trumps(self, seat: str, suit: Suit) -> bool:
        holding = self.may_hold(seat)
        if any(c.suit == suit for c in holding) or self.trump is None or suit == self.trump:
            return False
        return any(c.suit == self.trump for c in holding)


class ElyigitBasic:
    name = "basic"

    def __init__(self, margin: float = 0.0) -> None:
        self.margin = margin

    def decide(self, view: ElyigitView) -> Decision:
        if view.phase == "auction":
            return self._bid(view)
        if view.phase == "trump":
            trump, estimate = best_trump(view.hand, view.no_trumps)
            return Decision(NameTrump(trump), Reason("hint.elyigit.trump_worth", f"my hand is worth about {estimate:.1f} tricks with these trumps", tricks=round(estimate, 1)))
        return self._play(view)

    # -- the auction -----------------------------------------------------------------

    def _bid(self, view: ElyigitView) -> Decision:
        _trump, estimate = best_trump(view.hand, view.no_trumps)
        assert view.seat is not None
        partner = partner_of(view.seat)
        partner_calls = [call for s, call in view.auction if s == partner]
        partner_bids = [int(call.split()[1]) for call in partner_calls if call.startswith("bid")]
        if partner_bids:
            # A partner bids b when their side looks good for b tricks; their first bid
            # is the one that speaks of their own hand (later ones count on ours).
            support = min(PARTNER_BID_CAP, max(PARTNER_UNSEEN, partner_bids[0] - 2.3))
        elif partner_calls:
            support = PARTNER_PASSED
        else:
            support = PARTNER_UNSEEN
        side = SIDE_BASE + SIDE_SCALE * estimate + support - self.margin
        bids = sorted(int(a.split()[1]) for a in view.legal if a.startswith("bid"))
        if not bids:
            return Decision(Pass(), Reason("hint.elyigit.no_higher", "nobody can bid higher"))
        need = bids[0] - BID_SLACK
        if view.high_bidder == partner:
            # Take the contract off partner only with tricks to spare.
            need += 0.5
        if side >= need:
            return Decision(Bid(bids[0]), Reason("hint.elyigit.side_good", f"our side looks good for about {side:.1f} tricks", tricks=round(side, 1)))
        return Decision(Pass(), Reason("hint.elyigit.side_short", f"our side looks good for only about {side:.1f} tricks", tricks=round(side, 1)))

    # -- the play --------------------------------------------------------------------

    def _play(self, view: ElyigitView) -> Decision:
        table = _Table(view)
        legal = [Card.parse(text.split()[1]) for text in view.legal]
        if len(legal) == 1:
            return Decision(Play(legal[0]), Reason("hint.only_card", f"{legal[0].pretty} is the only card the rule allows", card=legal[0]))
        if not table.current:
            return self._lead(table, legal)
        return self._follow(table, legal)

    def _cost(self, card: Card, trump: Suit | None) -> int:
        return _strength(card) + (10 if card.suit == trump else 0)

    def _follow(self, table: _Table, legal: list[Card]) -> Decision:
        trick = [card for _, card in table.current]
        trump = table.trump
        partner = partner_of(table.me)
        winning_seat = table.current[trick_winner(trick, trump)][0]
        later = table.after_me()
        opponents_later = [s for s in later if side_of(s) != side_of(table.me)]

        def cheap(cards: list[Card]) -> Card:
            return min(cards, key=lambda c: self._cost(c, trump))

        if winning_seat == partner:
            safe = not any(table.could_beat(s, trick) for s in opponents_later)
            keepers = [c for c in legal if trick_winner(trick + [c], trump) != len(trick)]
            if safe and keepers:
                card = self._discard(keepers, trump)
                return Decision(Play(card), Reason("hint.partner_holds", f"my partner's card holds the trick: {card.pretty} costs nothing", card=card))
        winners = [c for c in legal if trick_winner(trick + [c], trump) == len(trick)]
        if winners:
            unbeatable = [c for c in winners if not any(table.could_beat(s, trick + [c]) for s in opponents_later)]
            if unbeatable:
                card = cheap(unbeatable)
                return Decision(Play(card), Reason("hint.cheapest_winner", f"{card.pretty} is the cheapest card that takes the trick", card=card))
            if not opponents_later:
                card = cheap(winners)
                return Decision(Play(card), Reason("hint.takes", f"{card.pretty} takes the trick", card=card))
            losers = [c for c in legal if c not in winners]
            if losers:
                card = self._discard(losers, trump)
                return Decision(Play(card), Reason("hint.keep_winners", f"an opponent can still overtake: keep my winners, play {card.pretty}", card=card))
            card = cheap(winners)
            return Decision(Play(card), Reason("hint.forced_high", f"the rule makes me play high: {card.pretty}", card=card))
        card = self._discard(legal, trump)
        return Decision(Play(card), Reason("hint.cannot_take", f"cannot take this trick: {card.pretty}", card=card))

    def _discard(self, cards: list[Card], trump: Suit | None) -> Card:
        """The card least worth keeping: no trump if possible, a low card, from a short suit
        (a void makes ruffing compulsory, which wins tricks for a side with trumps)."""
        lengths = Counter(c.suit for c in cards)
        return min(cards, key=lambda c: (c.suit == trump, _strength(c) >= 9, lengths[c.suit], _strength(c)))

    def _lead(self, table: _Table, legal: list[Card]) -> Decision:
        trump = table.trump
        opponents = table.opponents()
        partner = partner_of(table.me)
        opponent_trumps = any(c.suit == trump for s in opponents for c in table.may_hold(s)) if trump else False
        trumps = [c for c in legal if c.suit == trump]
        # The declaring side draws trumps with a master trump while the opponents may
        # still hold some (defenders, short of trumps, do better keeping theirs).
        declaring = table.view.declarer is not None and side_of(table.view.declarer) == side_of(table.me)
        master_trumps = [c for c in trumps if table.is_master(c)]
        if declaring and master_trumps and opponent_trumps and len(trumps) >= 2:
            card = max(master_trumps, key=_strength)
            return Decision(Play(card), Reason("hint.draw_trumps", f"draw the opponents' trumps with {card.pretty}", card=card))
        # Cash a side card nobody can beat, unless an opponent will ruff it.
        for card in sorted(legal, key=lambda c: -_strength(c)):
            if card.suit == trump or not table.is_master(card):
                continue
            if any(table.void_with_trumps(s, card.suit) for s in opponents):  # type: ignore[arg-type]
                continue
            return Decision(Play(card), Reason("hint.cash", f"cash {card.pretty}, the best card left in its suit", card=card))
        # Lead a suit my partner (or my dummy) must ruff.
        if trump is not None:
            for card in sorted(legal, key=_strength):
                if card.suit != trump and table.void_with_trumps(partner, card.suit):  # type: ignore[arg-type]
                    return Decision(Play(card), Reason("hint.lead_to_ruff", f"lead {card.pretty}: my partner is void and must ruff", card=card))
        side = [c for c in legal if c.suit != trump] or legal
        lengths = Counter(c.suit for c in side)
        card = min(side, key=lambda c: (-lengths[c.suit], _strength(c)))
        return Decision(Play(card), Reason("hint.lead_low_longest", f"lead low from my longest suit: {card.pretty}", card=card))


__all__ = ["ElyigitBasic", "best_trump", "estimate_tricks"]
