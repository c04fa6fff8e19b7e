"""Properties over thousands of seeded random deals (random legal play, every preset)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from elyigit_helpers import reference_allowed

from nines.cards import Card, Suit, ace_low, deck_36
from nines.games.contract import RulesError
from nines.games.elyigit import PRESETS, Bid, ElyigitOptions, ElyigitState, NameTrump, Pass, Play
from nines.games.elyigit.options import TRICKS_PER_DEAL
from nines.games.elyigit.scoring import target_reached
from nines.record import replay

PRESET_NAMES = sorted(PRESETS)
DECK = deck_36()
DECK_CODES = {c.code for c in DECK}
CARD_RE = re.compile(r"^(?:play )?([A2-9TJQK][SHDC])$")

# every action the game knows, legal or not, to try on a state
UNIVERSE = [Bid(n) for n in range(1, 11)] + [Pass()] + [NameTrump(s) for s in Suit] + [NameTrump(None)] + [
    Play(card) for card in DECK
]


def _options(seed: int) -> tuple[str, ElyigitOptions]:
    name = PRESET_NAMES[seed % len(PRESET_NAMES)]
    return name, PRESETS[name]


def _played_in_match(state: ElyigitState) -> set[Card]:
    played: set[Card] = set()
    for deal in state.deals:
        for trick in deal.tricks:
            played.update(trick.cards)
        if deal.trick is not None:
            played.update(deal.trick.cards)
    return played


def _check_step(state: ElyigitState, name: str, look: bool) -> None:
    """Invariants that hold before every action (``look``: also check what the table shows)."""
    deal = state.deal
    legal = state.legal_actions()
    # legal actions: sorted, unique, never empty, text round-trips
    assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
    for action in legal:
        assert ElyigitState.parse_action(str(action)) == action
    # cards are conserved: the hands and the cards played this deal are the deck, once each
    in_play = [c for hand in deal.hands.values() for c in hand]
    in_play += [c for t in deal.tricks for c in t.cards] + (deal.trick.cards if deal.trick else [])
    codes = [c.code for c in in_play]
    assert len(codes) == len(DECK_CODES) and set(codes) == DECK_CODES
    # the dummy lies face up exactly from the naming of trumps
    if look or deal.phase == "trump" or (deal.trick is not None and not deal.tricks and not deal.trick.plays):
        for seat in (None, *state.seats):
            view = state.view(seat)
            if deal.phase in ("auction", "trump"):
                assert view.dummy_hand is None and view.dummy is None and deal.contract is None
            else:
                assert deal.contract is not None
                assert set(view.dummy_hand or ()) == set(deal.hands[deal.contract.dummy])
    # every play offered obeys the seed's rule restated independently (standard game)
    if deal.phase == "play" and name == "standard":
        seat = state.to_act
        assert seat is not None and deal.trick is not None and deal.contract is not None
        hand, trick = deal.hands[seat], deal.trick.cards
        expected = {c for c in hand if reference_allowed(c, hand, trick, deal.contract.trump)}
        assert {a.card for a in legal if isinstance(a, Play)} == expected


def _check_stop(state: ElyigitState, number: int) -> None:
    """The hand stopped exactly at the first trick where the rule says it stops."""
    deal = state.deals[number - 1]
    if deal.contract is None:
        assert deal.result is not None and deal.result["thrown_in"]
        return
    options = state.options
    counts = {"NS": 0, "EW": 0}
    stop_at = None
    for k, trick in enumerate(deal.tricks, start=1):
        winner = trick.winner(deal.contract.trump, ace_low)
        counts["NS" if winner in "NS" else "EW"] += 1
        reached = target_reached(deal.contract, counts) is not None
        if k == TRICKS_PER_DEAL or (not options.play_out and reached and k >= options.min_tricks):
            stop_at = k
            break
    assert stop_at == len(deal.tricks)
    assert deal.result is not None and deal.result["tricks"] == counts
    # exactly one side has reached its target, and it decides the result
    side = target_reached(deal.contract, counts)
    assert side is not None
    assert deal.result["made"] == (side == deal.contract.declaring_side)


@pytest.mark.parametrize("block", range(4))
def test_random_deals_keep_every_invariant(block):
    """2400 deals of random legal play, every preset, every invariant at every step
    (the views of all five seats at the reveal, the first lead and every fifth step)."""
    for seed in range(block * 600, (block + 1) * 600):
        name, options = _options(seed)
        state = ElyigitState(options, seed)
        rng = random.Random(seed)
        number = state.deal.number
        step = 0
        while not state.is_over and state.deal.number == number:
            _check_step(state, name, look=step % 5 == 0)
            state.apply(rng.choice(state.legal_actions()), by=state.acting_seat)
            step += 1
        _check_stop(state, number)


def test_scores_move_only_by_the_deal_results():
    for seed in range(60):
        state = ElyigitState(_options(seed)[1], seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        total = {"NS": 0, "EW": 0}
        for deal in state.deals:
            assert deal.result is not None
            changes = deal.result["score_change"]
            # only one side scores in a deal; a contract played scores at least its bid
            assert min(changes.values()) == 0
            if deal.contract is not None:
                assert max(changes.values()) >= deal.contract.bid
            for side, points in changes.items():
                total[side] += points
            assert deal.scores_after == total
        assert state.scores == total and max(total.values()) >= state.options.target
        assert state.winners == [max(total, key=total.__getitem__)]


@pytest.mark.parametrize("block", range(2))
def test_records_round_trip_through_replay(block):
    """Whole matches: record -> JSON -> replay -> the identical record."""
    for seed in range(block * 60, (block + 1) * 60):
        state = ElyigitState(_options(seed)[1], seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        record = state.record(players=dict.fromkeys(state.seats, "random"))
        rebuilt = replay(json.loads(json.dumps(record)))
        assert rebuilt.record(players=record["players"]) == record
        assert rebuilt.winners == state.winners


def _snapshot(state: ElyigitState) -> tuple[Any, ...]:
    return (json.dumps(state.record()), tuple(json.dumps(state.view(s).to_dict()) for s in (None, *state.seats)))


def test_rejected_actions_change_nothing():
    refused = 0
    for seed in range(100):
        state = ElyigitState(_options(seed)[1], seed)
        rng = random.Random(seed)
        number = state.deal.number
        step = 0
        while not state.is_over and state.deal.number == number:
            step += 1
            if step % 4 == 0:
                legal = set(state.legal_actions())
                illegal = [a for a in UNIVERSE if a not in legal]
                before = _snapshot(state)
                action = rng.choice(illegal)
                with pytest.raises(RulesError) as error:
                    state.apply(action)
                assert str(error.value), "a refusal says why"
                wrong = rng.choice([s for s in state.seats if s != state.acting_seat])
                with pytest.raises(RulesError, match="it is not"):
                    state.apply(rng.choice(sorted(legal)), by=wrong)
                assert _snapshot(state) == before
                refused += 2
            state.apply(rng.choice(state.legal_actions()))
    assert refused > 600


def _cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= _cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item)
    elif isinstance(value, str):
        match = CARD_RE.match(value)
        if match:
            found.add(match.group(1))
    return found


@pytest.mark.parametrize("block", range(2))
def test_views_never_contain_a_hidden_card(block):
    """Two deals each of 120 matches: the spectator and one seat at every step."""
    for seed in range(block * 60, (block + 1) * 60):
        state = ElyigitState(_options(seed)[1], seed)
        rng = random.Random(seed)
        number = state.deal.number
        while not state.is_over and state.deal.number <= number + 1:
            deal = state.deal
            public = {c.code for c in _played_in_match(state)}
            if deal.contract is not None:
                public |= {c.code for c in deal.hands[deal.contract.dummy]}
            for seat in (None, rng.choice(state.seats)):
                own = {c.code for c in deal.hands[seat]} if seat is not None else set()
                shown = _cards_in(state.view(seat).to_dict())
                assert shown <= public | own, f"{seat} sees {shown - public - own}"
                assert own <= shown, "a seat sees its whole hand"
            state.apply(rng.choice(state.legal_actions()))


def test_a_clone_is_independent_of_its_original():
    for seed in range(20):
        state = ElyigitState(_options(seed)[1], seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 120)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        before = json.dumps(state.record())
        twin = state.clone()
        assert json.dumps(twin.record()) == before
        while not twin.is_over and twin.deal.number <= state.deal.number + 1:
            twin.apply(rng.choice(twin.legal_actions()))
        assert json.dumps(state.record()) == before
        assert twin.rng.getstate() != state.rng.getstate() or twin.deal.number == state.deal.number
