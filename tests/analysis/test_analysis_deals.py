"""Deals come from (seed, number) alone, are whole decks, and read back into arrays exactly."""

from __future__ import annotations

import numpy as np
import pytest

from nines.analysis.deals import (
    ELYIGIT_RANKS,
    ELYIGIT_SEATS,
    NEUF_RANKS,
    NEUF_SEATS,
    deal_rng,
    elyigit_deal,
    hands_array,
    neuf_deal,
)
from nines.cards import ace_high, ace_low, deck_36, deck_52, format_deal, format_hand


def test_a_deal_depends_on_its_seed_and_number_only():
    forward = [elyigit_deal(7, i) for i in range(6)]
    backward = [elyigit_deal(7, i) for i in reversed(range(6))][::-1]
    assert forward == backward
    assert elyigit_deal(7, 3) != elyigit_deal(8, 3)
    assert elyigit_deal(7, 3) != elyigit_deal(7, 4)
    # the games draw from separate streams even with the same seed and number
    assert deal_rng("elyigit", 7, 3).random() != deal_rng("neuf", 7, 3).random()


def test_deal_numbers_start_at_zero():
    with pytest.raises(ValueError, match="start at 0"):
        deal_rng("elyigit", 1, -1)


@pytest.mark.parametrize("index", range(5))
def test_deals_hand_out_the_whole_deck(index):
    hands = elyigit_deal(11, index)
    assert list(hands) == list(ELYIGIT_SEATS)
    assert all(len(cards) == 9 for cards in hands.values())
    assert sorted(c for cards in hands.values() for c in cards) == sorted(deck_36())
    neuf = neuf_deal(11, index)
    assert list(neuf) == [*NEUF_SEATS, "spare"]
    assert all(len(cards) == 13 for cards in neuf.values())
    assert sorted(c for cards in neuf.values() for c in cards) == sorted(deck_52())


def test_deals_are_uniform_enough_that_each_seat_gets_a_quarter_of_the_nines():
    counts = np.zeros(4)
    for i in range(400):
        for s, seat in enumerate(ELYIGIT_SEATS):
            counts[s] += sum(card.rank is not None and card.rank.value == 9 for card in elyigit_deal(3, i)[seat])
    # 1600 nines over four seats: each seat's share is 400 +- ~35 (2 sd)
    assert np.all(np.abs(counts - 400) < 70), counts


def test_hands_array_reads_the_notation_back():
    deals = [elyigit_deal(5, i) for i in range(30)]
    texts = [format_deal(d, ELYIGIT_SEATS, strength=ace_low) for d in deals]
    array = hands_array(texts, ELYIGIT_SEATS, ELYIGIT_RANKS)
    assert array.shape == (30, 4, 4, 9)
    for d, hands in enumerate(deals):
        for s, seat in enumerate(ELYIGIT_SEATS):
            expected = np.zeros((4, 9), dtype=bool)
            for card in hands[seat]:
                expected[card.suit.index, ace_low(card.rank) - 1] = True
            assert np.array_equal(array[d, s], expected)


def test_hands_array_for_le_neuf_ranks_the_ace_high():
    hands = neuf_deal(2, 0)
    text = format_deal({s: hands[s] for s in NEUF_SEATS}, NEUF_SEATS, strength=ace_high)
    array = hands_array([text], NEUF_SEATS, NEUF_RANKS)
    for s, seat in enumerate(NEUF_SEATS):
        for card in hands[seat]:
            assert array[0, s, card.suit.index, ace_high(card.rank) - 2]
    assert array.sum() == 39


def test_hands_array_refuses_a_deal_written_from_another_seat():
    text = "E:" + " ".join(format_hand([], ace_low) for _ in range(4))
    with pytest.raises(ValueError, match="written from 'E'"):
        hands_array([text], ELYIGIT_SEATS, ELYIGIT_RANKS)
    with pytest.raises(ValueError, match="3 hands"):
        hands_array(["N:-.-.-.- -.-.-.- -.-.-.-"], ELYIGIT_SEATS, ELYIGIT_RANKS)
