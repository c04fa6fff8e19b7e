"""Le Neuf invariants over thousands of seeded random matches, in every variant."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nines.bots import make_player, play_match
from nines.cards import deck_52
from nines.games.contract import RulesError
from nines.games.neuf import PRESETS, SPARE, NeufOptions, NeufState
from nines.games.tricks import Play
from nines.record import replay

PRESET_NAMES = sorted(PRESETS)
MATCHES_PER_PRESET = 112  # x 9 presets: over a thousand whole matches


def _players(state, seed, names=("basic", "random")):
    rng = random.Random(seed)
    return {seat: make_player(rng.choice(names), "neuf", random.Random(seed * 7 + i)) for i, seat in enumerate(state.seats)}


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_whole_matches_keep_every_invariant(preset):
    options = PRESETS[preset]
    for seed in range(MATCHES_PER_PRESET):
        state = NeufState(options, seed)
        play_match(state, _players(state, seed))
        record = state.record()
        sides = options.sides
        previous_total = len(sides) * options.start_score
        for deal in record["deals"]:
            dealt = [c for hand in deal["hands"].values() for c in hand]
            # cards conserved: the 52 cards, each dealt once (13 per hand, 13 to the spare)
            assert Counter(dealt) == Counter(c.code for c in deck_52())
            assert all(len(h) == 13 for h in deal["hands"].values())
            tricks = deal["result"]["tricks"]
            total = sum(deal["scores"].values())
            if "instant_win" in deal["result"]:
                assert state.is_over and deal is record["deals"][-1]
                continue
            # thirteen tricks a deal; the scores together fall by exactly one
            assert sum(tricks.values()) == 13 and len(deal["tricks"]) == 13
            assert total == previous_total - 1
            previous_total = total
        # the match ends when someone reaches zero; the lowest score(s) win
        final = record["final_scores"]
        assert min(final.values()) <= 0
        assert set(record["winners"]) == {s for s in sides if final[s] == min(final.values())} or options.instant_win
        assert len(record["deals"]) <= len(sides) * options.start_score - 1
        # record -> replay -> record is identical, and survives JSON
        again = replay(json.loads(json.dumps(record)))
        assert again.record() == record


def _known_codes(state: NeufState, seat: str) -> set[str]:
    deal = state.deal
    known = {c.code for c in deal.hands[seat]}
    known |= {c.code for t in deal.tricks for c in t.cards}
    if deal.trick:
        known |= {c.code for c in deal.trick.cards}
    if seat in deal.left_behind:
        known |= {c.code for c in deal.left_behind[seat]}
    return known


def _codes_in(value) -> set[str]:
    codes = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("previous_deal", "score_sheet"):
                codes |= _codes_in(item)
    elif isinstance(value, list):
        for item in value:
            codes |= _codes_in(item)
    elif isinstance(value, str):
        for word in value.split():
            if len(word) == 2 and word[0] in "A23456789TJQK" and word[1] in "SHDC":
                codes.add(word)
    return codes


@pytest.mark.slow
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESET_NAMES), steps=st.integers(1, 60))
def test_views_hide_what_a_seat_may_not_know_and_refusals_change_nothing(seed, preset, steps):
    state = NeufState(PRESETS[preset], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        # every seat's view holds only cards that seat may know; a spectator only public ones
        for seat in state.seats:
            view = state.view(seat)
            assert _codes_in(view.to_dict()) <= _known_codes(state, seat)
            assert sorted(view.hand) == sorted(state.deal.hands[seat])
        public = {c.code for t in state.deal.tricks for c in t.cards} | {c.code for c in (state.deal.trick.cards if state.deal.trick else [])}
        assert _codes_in(state.view(None).to_dict()) <= public
        legal = state.legal_actions()
        assert legal == sorted(set(legal), key=legal.index) and len(set(legal)) == len(legal)
        assert all(state.parse_action(str(a)) == a for a in legal)
        # a refused action (illegal card, or the right move by the wrong seat) changes nothing
        before = (state.record(), state.view(state.to_act))
        illegal = [Play(c) for c in deck_52() if Play(c) not in legal]
        wrong_seat = next(s for s in state.seats if s != state.to_act)
        for bad, by in ((rng.choice(illegal), None), (legal[0], wrong_seat)):
            with pytest.raises(RulesError):
                state.apply(bad, by=by)
            assert (state.record(), state.view(state.to_act)) == before
        # clone and apply agree
        action = rng.choice(legal)
        twin = state.clone()
        state.apply(action, by=state.to_act)
        twin.apply(action)
        assert twin.record() == state.record()


def test_spare_hand_is_revealed_only_after_the_deal():
    state = NeufState(NeufOptions(), seed=11)
    rng = random.Random(11)
    for _ in range(60):  # partway through the first deal
        state.apply(rng.choice(state.legal_actions()))
    # partway: no seat sees the set-aside hand unless it left it there
    deal = state.deal
    for seat in state.seats:
        if seat not in deal.left_behind:
            assert not (set(state.view(seat).hand) & set(deal.set_aside))
    finished = NeufState(NeufOptions(), seed=11)
    play_match(finished, _players(finished, 11, ("random",)))
    previous = finished.view("S").previous_deal
    assert previous is not None and len(previous["hands"][SPARE]) == 13 and previous["result"]["set_aside"]
