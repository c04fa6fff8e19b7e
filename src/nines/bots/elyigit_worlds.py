"""What one seat of Elyigit's Nines knows, and the full deals consistent with it.

From an :class:`~nines.games.elyigit.ElyigitView` only: the seat's hand, the dummy
once it is face up, every card played, and what the compulsory rule reveals.  The
rule makes every card played say a great deal: a player who did not beat the best
card of the suit led holds no higher one, a player who did not follow holds none of
the suit, a player who did not trump holds no trump, a player who trumped low holds
no higher trump.  All of these come from one test: a card ``x`` cannot be in a hand
if a hand holding ``x`` beside the card actually played could not have played it
(:func:`ruled_out`).  The rule's clauses are all of the form "holding any card of a
class, you must play one of them", so this one-card test is exact.

The cards not seen are dealt by :func:`~nines.bots.sampling.deal_unseen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, ace_low, deck_36
from ..games.elyigit import ElyigitView
from .sampling import SampledTrickWorlds
from .tricksim import Compulsory, LegalFn, encode, trump_index

DECK_CODES: tuple[int, ...] = tuple(encode(card, ace_low) for card in deck_36())


def code(card: Card | str) -> int:
    return encode(card if isinstance(card, Card) else Card.parse(card), ace_low)


def compulsory_for(view: ElyigitView) -> Compulsory:
    rules = view.play_rules
    return Compulsory(
        rules.must_beat_led_suit, rules.must_trump, rules.must_overtrump, rules.must_undertrump,
        rules.partner_exemption,
    )


def ruled_out(legal: LegalFn, played: int, before: Sequence[int], trump: int, candidates: Sequence[int]) -> set[int]:
    """The candidate cards the player cannot hold, having played ``played`` after ``before``."""
    out = set()
    table = list(before)
    for x in candidates:
        if played not in legal([played, x], table, trump):
            out.add(x)
    return out


@dataclass(frozen=True)
class ElyigitKnowledge(SampledTrickWorlds):
    seats: tuple[str, ...]
    me: str
    """The seat deciding (the declarer when it plays the dummy's card)."""
    trump: int
    hands_known: dict[str, tuple[int, ...]]
    holders: tuple[str, ...]
    sizes: tuple[int, ...]
    forbidden: tuple[frozenset[int], ...]
    pool: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]

    @classmethod
    def from_view(cls, view: ElyigitView) -> ElyigitKnowledge:
        if view.seat is None:
            raise ValueError("a spectator's view holds no hand to reason from")
        seats = tuple(view.seats)
        trump = trump_index(view.trump) if view.trump is not None else -1
        hands_known: dict[str, tuple[int, ...]] = {view.seat: tuple(code(c) for c in view.hand)}
        if view.dummy is not None and view.dummy_hand is not None and view.dummy != view.seat:
            hands_known[view.dummy] = tuple(code(c) for c in view.dummy_hand)
        seen = {c for cards in hands_known.values() for c in cards}
        tricks = list(view.tricks_played) + ([view.trick] if view.trick is not None else [])
        plays: list[tuple[str, int, tuple[int, ...]]] = []
        for trick in tricks:
            played: list[int] = []
            for seat, text in trick.plays:
                card = code(text)
                plays.append((seat, card, tuple(played)))
                played.append(card)
                seen.add(card)
        pool = tuple(c for c in DECK_CODES if c not in seen)
        legal = compulsory_for(view).legal
        banned: dict[str, set[int]] = {seat: set() for seat in seats}
        for seat, card, before in plays:
            if seat not in hands_known and before:
                banned[seat] |= ruled_out(legal, card, before, trump, pool)
        holders = tuple(seat for seat in seats if seat not in hands_known)
        trick_cards = tuple(code(c) for _, c in view.trick.plays) if view.trick is not None else ()
        leader = seats.index(view.trick.leader) if view.trick is not None else 0
        return cls(
            seats=seats,
            me=view.seat,
            trump=trump,
            hands_known=hands_known,
            holders=holders,
            sizes=tuple(view.hand_sizes[seat] for seat in holders),
            forbidden=tuple(frozenset(banned[seat]) for seat in holders),
            pool=pool,
            leader=leader,
            trick=trick_cards,
            won=tuple(view.tricks_won.get(seat, 0) for seat in seats),
        )
