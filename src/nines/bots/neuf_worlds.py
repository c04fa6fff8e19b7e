"""What one Le Neuf seat knows, and the full deals ("worlds") consistent with it.

From a :class:`~nines.games.neuf.NeufView` only:

* its own hand;
* every card played (tricks played and the trick in progress);
* voids: a player who did not follow the suit led holds none of it;
* the hand it left in the exchange, and where that hand is now (another player, who
  then holds exactly what is left of it, or the set-aside hand);
* the number of cards in every hand.

Everything else (the other hands, the spare or set-aside hand) is dealt at random
from the unseen cards by :func:`~nines.bots.sampling.deal_unseen`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, ace_high, deck_52
from ..games.neuf import NeufView
from .sampling import SampledTrickWorlds
from .tricksim import encode, trump_index

EXTRA = "extra"
"""The fourth hand: the spare (or the hand in the centre) during the exchange, the set-aside hand in play."""

DECK_CODES: tuple[int, ...] = tuple(encode(card, ace_high) for card in deck_52())


def code(card: Card | str) -> int:
    return encode(card if isinstance(card, Card) else Card.parse(card), ace_high)


@dataclass(frozen=True)
class NeufKnowledge(SampledTrickWorlds):
    """The seat's knowledge, in the fast card form of :mod:`nines.bots.tricksim`."""

    seats: tuple[str, ...]
    me: int
    trump: int
    phase: str
    hands_known: dict[str, tuple[int, ...]]  # holder -> cards known to be there (mine, my old hand)
    holders: tuple[str, ...]  # hidden holders: seats and EXTRA
    sizes: tuple[int, ...]  # how many unknown cards each hidden holder has
    forbidden: tuple[frozenset[int], ...]
    pool: tuple[int, ...]  # the unseen cards
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    tricks_played: int
    played_by: dict[str, tuple[int, ...]]  # seat -> cards it has played this deal
    exchange_order: tuple[str, ...]
    exchanges: dict[str, str]  # seat -> "keep" / "exchange", for those who have decided

    @classmethod
    def from_view(cls, view: NeufView) -> NeufKnowledge:
        if view.seat is None:
            raise ValueError("a spectator's view holds no hand to reason from")
        seats = tuple(view.seats)
        me = seats.index(view.seat)
        hand = tuple(code(c) for c in view.hand)
        seen: set[int] = set(hand)
        voids: dict[str, set[int]] = {seat: set() for seat in seats}
        played_by: dict[str, list[int]] = {seat: [] for seat in seats}
        tricks = list(view.tricks_played) + ([view.trick] if view.trick is not None else [])
        for trick in tricks:
            if not trick.plays:
                continue
            led = code(trick.plays[0][1]) >> 4
            for seat, text in trick.plays:
                card = code(text)
                seen.add(card)
                played_by[seat].append(card)
                # Follow suit if you can: a player who did not holds none of the suit led.
                if card >> 4 != led:
                    voids[seat].add(led)
        hands_known: dict[str, tuple[int, ...]] = {view.seat: hand}
        remembered = view.remembered
        if remembered is not None and remembered.now_with in seats:
            hands_known[remembered.now_with] = tuple(code(c) for c in remembered.unplayed)
        elif remembered is not None and remembered.now_with in ("set-aside", "centre"):
            hands_known[EXTRA] = tuple(code(c) for c in remembered.cards)
        for cards in hands_known.values():
            seen.update(cards)
        pool = tuple(c for c in DECK_CODES if c not in seen)
        holders: list[str] = []
        sizes: list[int] = []
        forbidden: list[frozenset[int]] = []
        for seat in seats:
            if seat in hands_known:
                continue
            holders.append(seat)
            sizes.append(view.hand_sizes[seat])
            forbidden.append(frozenset(c for c in pool if c >> 4 in voids[seat]))
        if view.form == "three" and EXTRA not in hands_known:
            # the spare (or set-aside) hand takes whatever is left: 13 cards in a real deal
            holders.append(EXTRA)
            sizes.append(len(pool) - sum(sizes))
            forbidden.append(frozenset())
        trick_cards = tuple(code(c) for _, c in view.trick.plays) if view.trick is not None else ()
        leader = seats.index(view.trick.leader) if view.trick is not None else me
        return cls(
            seats=seats,
            me=me,
            trump=trump_index(view.trump),
            phase=view.phase,
            hands_known=hands_known,
            holders=tuple(holders),
            sizes=tuple(sizes),
            forbidden=tuple(forbidden),
            pool=pool,
            leader=leader,
            trick=trick_cards,
            won=tuple(view.tricks_won.get(seat, 0) for seat in seats),
            tricks_played=len(view.tricks_played),
            played_by={seat: tuple(cards) for seat, cards in played_by.items()},
            exchange_order=tuple(view.exchange_order),
            exchanges=dict(view.exchanges),
        )

    def hands_at_exchange(self, hands: dict[str, list[int]]) -> dict[str, tuple[list[int], list[int]]]:
        """In a world, each decided seat's hand and the centre hand it was offered, when it decided.

        Undoes the exchange backwards from the world's current hands (plus the cards each
        seat has played) and its fourth hand, the centre now or the set-aside hand.
        """
        current = {seat: list(hands[seat]) + list(self.played_by.get(seat, ())) for seat in self.seats}
        centre = list(hands[EXTRA])
        offered: dict[str, tuple[list[int], list[int]]] = {}
        decided = [seat for seat in self.exchange_order if seat in self.exchanges]
        for seat in reversed(decided):
            if self.exchanges[seat] == "exchange":
                # it left its hand in the centre and took what lay there
                current[seat], centre = centre, current[seat]
            offered[seat] = (list(current[seat]), list(centre))
        return offered
