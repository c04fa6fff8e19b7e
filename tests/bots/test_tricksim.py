"""The fast trick simulation plays by the engine's rules: random deals played side by side."""

import random

import pytest

from nines.bots.tricksim import (
    FOLLOW_SUIT,
    Compulsory,
    TrickPosition,
    TrickRules,
    decode_card,
    encode,
    trump_index,
    winner_index,
)
from nines.cards import ace_high, ace_low
from nines.games.elyigit import ElyigitOptions, ElyigitState
from nines.games.elyigit.play_rules import PlayRules, legal_plays
from nines.games.neuf import NeufOptions, NeufState
from nines.games.tricks import Play


def _engine_position(state, strength, trump_text):
    deal = state.deal
    seats = list(state.seats)
    return TrickPosition(
        hands=[[encode(c, strength) for c in deal.hands[s]] for s in seats],
        trump=trump_index(trump_text),
        leader=seats.index(deal.trick.leader),
        trick=[encode(c, strength) for _, c in deal.trick.plays],
        won=[deal.won[s] for s in seats],
        tricks_played=len(deal.tricks),
    )


@pytest.mark.parametrize("form", ["three", "partners", "individual"])
def test_le_neuf_deals_play_identically(form):
    rng = random.Random(7)
    for seed in range(25):
        state = NeufState(NeufOptions(form=form), seed=seed)
        while state.deal.phase == "exchange":
            state.apply(rng.choice(state.legal_actions()))
        trump = "NT" if state.deal.trump is None else state.deal.trump.value
        pos = _engine_position(state, ace_high, trump)
        number = state.deal.number
        while not state.is_over and state.deal.number == number:
            engine_legal = sorted(encode(a.card, ace_high) for a in state.legal_actions())
            assert sorted(FOLLOW_SUIT.legal(pos)) == engine_legal
            assert state.seats.index(state.to_act) == pos.to_act
            card = rng.choice(engine_legal)
            state.apply(Play(decode_card(card, ace_high)))
            FOLLOW_SUIT.play(pos, card)
            if state.deal.number == number and state.deal.phase == "play":
                assert pos.won == [state.deal.won[s] for s in state.seats]
        assert pos.over
        tricks = state.deals[number - 1].result["tricks"]
        assert pos.won == [tricks[s] for s in state.seats]


@pytest.mark.parametrize("preset", ["standard", "partner-exemption", "no-undertrump", "any-trump", "follow-suit"])
def test_elyigit_compulsory_rule_matches_the_engine(preset):
    from nines.games.elyigit import PRESETS

    options: ElyigitOptions = PRESETS[preset]
    rules = options.play_rules
    compulsory = Compulsory(
        rules.must_beat_led_suit, rules.must_trump, rules.must_overtrump, rules.must_undertrump, rules.partner_exemption
    )
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        state = ElyigitState(options, seed=seed)
        while state.deal.phase in ("auction", "trump") and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        if state.deal.phase != "play":
            continue
        contract = state.deal.contract
        trump = "NT" if contract.trump is None else contract.trump.value
        pos = _engine_position(state, ace_low, trump)
        sim = TrickRules(compulsory.legal)
        number = state.deal.number
        while not state.is_over and state.deal.number == number and state.deal.phase == "play":
            engine_legal = sorted(encode(a.card, ace_low) for a in state.legal_actions())
            assert sorted(sim.legal(pos)) == engine_legal
            card = rng.choice(engine_legal)
            state.apply(Play(decode_card(card, ace_low)))
            sim.play(pos, card)
            checked += 1
        tricks = state.deals[number - 1].result["tricks_by_seat"]
        assert pos.won == [tricks[s] for s in state.seats]
    assert checked > 100


def test_compulsory_rule_agrees_with_the_reference_function_on_random_hands():
    from nines.cards import Suit, deck_36

    rng = random.Random(11)
    deck = deck_36()
    rules = PlayRules()
    for _ in range(3000):
        rng.shuffle(deck)
        hand, table = deck[:5], deck[5:5 + rng.randrange(4)]
        trump = rng.choice([None, *Suit])
        expected = sorted(encode(c, ace_low) for c in legal_plays(hand, table, trump, rules))
        got = sorted(Compulsory().legal([encode(c, ace_low) for c in hand], [encode(c, ace_low) for c in table],
                                        trump_index(None if trump is None else trump.value)))
        assert got == expected


def test_winner_index_is_highest_trump_else_highest_of_suit_led():
    hearts, spades = 1, 0
    led_low = [hearts * 16 + 5, hearts * 16 + 12, spades * 16 + 14]
    assert winner_index(led_low, trump=-1) == 1
    assert winner_index(led_low, trump=spades) == 2
    assert winner_index([hearts * 16 + 5, spades * 16 + 3, spades * 16 + 4], trump=spades) == 2


def test_random_playout_ends_with_every_trick_won():
    rng = random.Random(1)
    for _ in range(50):
        cards = [s * 16 + r for s in range(4) for r in range(2, 15)]
        rng.shuffle(cards)
        pos = TrickPosition([cards[:13], cards[13:26], cards[26:39]], trump=rng.randrange(-1, 4), leader=0)
        FOLLOW_SUIT.playout(pos, rng)
        assert pos.over and sum(pos.won) == 13 and all(not h for h in pos.hands)
