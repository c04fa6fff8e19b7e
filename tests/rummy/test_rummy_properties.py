"""Properties over thousands of seeded random hands, 2 to 8 players.

At every step: every card is accounted for (hands + table + stock + discard pile +
indicator = the pack), every table set is a legal run or monkey, the legal actions are
sorted and unique, the rules' own validation agrees exactly with the enumeration on
legal and near-miss moves, and a refused move changes nothing.  At the end the record
replays to the same match.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from rummy_helpers import check_cards, check_table

from nines.cards import JOKER, SUITS, Card, Rank
from nines.games.contract import RulesError
from nines.games.rummy import Discard, Draw, Extend, Lay, Placement, RummyOptions, RummyState, Swap
from nines.games.rummy.melds import card_at, declared_variants
from nines.record import replay

ALL_CARDS = [Card(r, s) for s in SUITS for r in Rank] + [JOKER]


def near_misses(state: RummyState, legal: list, rng: random.Random) -> list:
    """Moves close to legal ones: a card changed, dropped or added, another set, another meaning."""
    deal = state.deal
    seat = deal.to_act
    hand = deal.hands[seat]
    out: list = [Draw("stock"), Draw("discard")]
    out += [Discard(c) for c in rng.sample(ALL_CARDS, 3)] + [Discard(c) for c in hand]
    lays = [a for a in legal if isinstance(a, Lay)]
    for lay in rng.sample(lays, min(4, len(lays))):
        cards = list(lay.placements)
        i = rng.randrange(len(cards))
        mutated = [
            cards[:i] + cards[i + 1 :],
            cards + [Placement.natural(rng.choice(hand))],
            cards[:i] + [Placement(cards[i].card, rng.choice(ALL_CARDS[:52]))] + cards[i + 1 :],
        ]
        for placements in mutated:
            if placements and len({(p.card, p.stands_for) for p in placements}) == len(placements):
                out.append(Lay(tuple(placements)))
    for card in rng.sample(hand, min(3, len(hand))):
        if card.rank is None or card.suit is None:
            continue
        start = card.rank.value
        run = [card_at(card.suit, p) for p in range(start, min(start + 3, 14) + 1)]
        out.append(Lay(tuple(Placement.natural(c) for c in run)))  # the rest of the run is seldom held
    for table_set in deal.table:
        for card in hand:
            if not card.is_joker:
                out += [Extend(table_set.id, Placement.natural(card)), Swap(table_set.id, card)]
        for want in table_set.wants():
            out += [Extend(table_set.id, Placement(w, want)) for w in set(hand) if w != want]
    for action in legal:
        if isinstance(action, Extend):
            other = next((s.id for s in deal.table if s.id != action.set_id), None)
            if other:
                out.append(Extend(other, action.placement))
    return out


def every_order(state: RummyState, legal: list) -> set:
    """The legal moves with every lay in each order of its wilds the player may declare (the list names one)."""
    moves = set(legal)
    if state.options.wild_places == "player":
        for action in legal:
            if isinstance(action, Lay):
                moves.update(Lay(variant) for variant in declared_variants(action.placements, state.deal.wilds))
    return moves


def wild_reorderings(state: RummyState, legal: list, rng: random.Random) -> list:
    """Lays of the list with their wild cards in another order over the same places."""
    out = []
    for action in legal:
        if isinstance(action, Lay):
            variants = sorted(declared_variants(action.placements, state.deal.wilds))
            out += [Lay(v) for v in rng.sample(variants, min(2, len(variants)))]
    return rng.sample(out, min(20, len(out)))


def check_exact(state: RummyState, legal: list, rng: random.Random) -> None:
    """The rules' validation (with its reasons) accepts exactly the enumerated moves (every order of a lay's
    wilds when the player places them), and the check that guards a move agrees with it."""
    legal_set = every_order(state, legal)
    for action in rng.sample(legal, min(40, len(legal))):
        assert state._reason(action) is None, action
    misses = near_misses(state, legal, rng) + wild_reorderings(state, legal, rng)
    for action in rng.sample(misses, min(60, len(misses))):
        reason = state._reason(action)
        assert (reason is None) == (action in legal_set), (str(action), reason)
        assert state.can_apply(action) == (reason is None), str(action)


def check_refusal(state: RummyState, legal: list, rng: random.Random) -> None:
    """A refused move raises a rules error and leaves everything as it was."""
    legal_set = every_order(state, legal)
    illegal = [a for a in near_misses(state, legal, rng) if a not in legal_set]
    seat = state.to_act
    before = (json.dumps(state.record()), json.dumps(state.view(seat).to_dict()))
    for action in rng.sample(illegal, min(3, len(illegal))):
        with pytest.raises(RulesError):
            state.apply(action)
        with pytest.raises(RulesError):
            state.apply(str(action))
    other = next(s for s in state.seats if s != seat)
    with pytest.raises(RulesError):
        state.apply(legal[0], by=other)
    assert (json.dumps(state.record()), json.dumps(state.view(seat).to_dict())) == before


def choose(legal: list, rng: random.Random, eager: bool):
    """Uniform random play, or (eager) random play that favours set plays so that tables grow."""
    if eager:
        plays = [a for a in legal if not isinstance(a, (Draw, Discard))]
        if plays and rng.random() < 0.7:
            return rng.choice(plays)
    return rng.choice(legal)


def play_checked(players: int, seed: int, hands: int, deep_every: int) -> tuple[RummyState, Counter[str]]:
    """Play a seeded random session, checking the invariants at every step."""
    # random play: the caps keep each hand short (the invariants do not depend on its length)
    state = RummyState(RummyOptions(players=players, hands=hands, reshuffles=2, turns_per_player=60), seed=seed)
    rng = random.Random(seed)
    eager = seed % 4 != 3
    seen: Counter[str] = Counter()
    step = 0
    while not state.is_over:
        legal = state.legal_actions()
        keys = [a._full_key() for a in legal]
        assert keys == sorted(keys) and len(set(legal)) == len(legal), "sorted and unique"
        check_cards(state)
        if step % deep_every == 0:
            assert [str(a) for a in legal] == list(state.view(state.to_act).legal)
            check_exact(state, legal, rng)
        if step % (deep_every * 8) == 0:
            check_refusal(state, legal, rng)
        action = choose(legal, rng, eager)
        seen[action.kind] += 1
        if isinstance(action, Lay) and len({p.stands_for.rank for p in action.placements}) == 1:
            seen["monkey"] += 1
        number = state.deal.number
        state.apply(str(action) if step % 2 else action)
        if not isinstance(action, (Draw, Discard)):
            check_table(state)
        if state.deal.number != number or state.is_over:
            seen["hands"] += 1
            previous = state.deals[number - 1]
            assert previous.result is not None
            went_out = previous.result["went_out"]
            assert went_out is None or previous.result["points"][went_out] == 0
            assert sum(previous.result["points"].values()) >= 0
        step += 1
    check_cards(state)
    return state, seen


SESSIONS = 50
HANDS = 3


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_random_hands_keep_every_invariant(players: int) -> None:
    """150 hands for each number of players (1050 in all), every invariant at every step."""
    seen: Counter[str] = Counter()
    for seed in range(SESSIONS):
        state, counts = play_checked(players, seed=1000 * players + seed, hands=HANDS, deep_every=16)
        seen.update(counts)
        if seed % 10 == 0:
            record = json.loads(json.dumps(state.record()))
            assert replay(record).record() == state.record()
    assert seen["hands"] == SESSIONS * HANDS
    # the random games really did lay, extend and swap
    assert seen["lay"] and seen["extend"] and seen["swap"]


def test_monkeys_appear_in_two_deck_games() -> None:
    monkeys = 0
    for seed in range(0, 12, 2):
        _, counts = play_checked(6, seed=seed, hands=1, deep_every=8)
        monkeys += counts["monkey"]
    assert monkeys > 0
