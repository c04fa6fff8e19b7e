"""Dealing the unseen cards consistently with what is known."""

import random
from collections import Counter
from itertools import combinations

import pytest

from nines.bots.sampling import InconsistentKnowledge, count_consistent, deal_unseen


def test_no_constraints_is_a_plain_shuffle_of_exact_sizes():
    rng = random.Random(1)
    hands = deal_unseen(list(range(10)), [3, 3, 4], None, rng)
    assert [len(h) for h in hands] == [3, 3, 4]
    assert sorted(c for h in hands for c in h) == list(range(10))


def test_forbidden_cards_never_reach_a_hand_and_sizes_are_exact():
    rng = random.Random(2)
    pool = list(range(26))
    forbidden = [set(range(13)), set(range(13, 20)), set()]
    for _ in range(300):
        hands = deal_unseen(pool, [8, 8, 10], forbidden, rng)
        assert [len(h) for h in hands] == [8, 8, 10]
        for hand, banned in zip(hands, forbidden, strict=True):
            assert not banned & set(hand)
        assert sorted(c for h in hands for c in h) == pool


def test_tight_constraints_are_always_satisfied():
    # Hand 0 may hold only 0-2 and must take three cards: it gets exactly them.
    rng = random.Random(3)
    pool = list(range(9))
    forbidden = [set(range(3, 9)), set(), {0, 1, 2}]
    for _ in range(100):
        hands = deal_unseen(pool, [3, 3, 3], forbidden, rng)
        assert sorted(hands[0]) == [0, 1, 2]


def test_impossible_knowledge_is_reported():
    with pytest.raises(InconsistentKnowledge):
        deal_unseen([0, 1, 2, 3], [2, 2], [{0, 1, 2}, {0, 1, 2}], random.Random(1))
    with pytest.raises(InconsistentKnowledge):
        deal_unseen([0, 1, 2], [2, 2], None, random.Random(1))


def test_every_consistent_deal_appears_at_close_to_uniform_rates():
    pool = list(range(6))
    sizes = [2, 2, 2]
    forbidden = [{0, 1}, {2}, set()]
    total = count_consistent(pool, sizes, forbidden)
    rng = random.Random(4)
    seen = Counter()
    draws = 6000
    for _ in range(draws):
        hands = deal_unseen(pool, sizes, forbidden, rng)
        seen[tuple(tuple(sorted(h)) for h in hands)] += 1
    assert len(seen) == total  # every consistent deal can come up
    expected = draws / total
    assert all(0.5 * expected < n < 1.6 * expected for n in seen.values())


def test_count_consistent_counts_by_brute_force():
    # two hands of two from four cards, card 0 not in hand 0: C(3,2) ways for hand 0
    assert count_consistent([0, 1, 2, 3], [2, 2], [{0}, set()]) == len(list(combinations([1, 2, 3], 2)))


def test_resampling_follows_the_weights():
    from nines.bots.sampling import resample

    rng = random.Random(6)
    drawn = resample(["a", "b", "c"], [0.0, 3.0, 1.0], 400, rng)
    assert drawn.count("a") == 0
    assert drawn.count("b") == 300 and drawn.count("c") == 100
    assert resample(["x", "y"], [0.0, 0.0], 3, rng) == ["x", "y", "x"]
