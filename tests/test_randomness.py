"""Fair deals: a match dealt from a secret is unpredictable from any seat's cards, unbiased,
and replayable from its finished record; a match dealt from an int seed is exactly as before."""

from __future__ import annotations

import collections
import copy
import itertools
import random
from collections.abc import Iterable
from typing import Any

import pytest

from nines.cards import deck_36
from nines.games import get_game
from nines.randomness import MatchSecret, SecretRandom
from nines.record import RecordError, replay

FIXED = MatchSecret(bytes(range(32)))


def first_hand(game: str, options: Any, source: int | MatchSecret, seat: str) -> list[str]:
    """The cards ``seat`` holds at the start of the first deal (what its view shows)."""
    return sorted(get_game(game).new_match(options, source).view(seat).to_dict()["hand"])


def seeds_that_deal(game: str, options: Any, seat: str, hand: list[str], seeds: Iterable[int]) -> list[int]:
    """The attack on the old deals: try every seed and keep those that give this seat this hand."""
    return [seed for seed in seeds if first_hand(game, options, seed, seat) == hand]


def play_out(state: Any, limit: int = 50_000) -> Any:
    chooser = random.Random(5)
    for _ in range(limit):
        if state.is_over:
            return state
        state.apply(chooser.choice(state.legal_actions()))
    raise AssertionError("the match did not end")


def test_one_seat_finds_an_int_seed_but_not_a_secret() -> None:
    """From a seated player's first hand, a brute-force search over the seed space found the seed
    (and with it every hand).  On a reduced space of 1,500 seeds: the method finds the seed of a
    match dealt the old way, and finds nothing for a match dealt from a secret."""
    spec = get_game("neuf")
    options = spec.options()
    space = range(1500)
    old_seed = random.Random(14).choice(space)
    found = seeds_that_deal("neuf", options, "S", first_hand("neuf", options, old_seed, "S"), space)
    assert found == [old_seed]
    secret_hand = first_hand("neuf", options, MatchSecret.new(), "S")
    assert seeds_that_deal("neuf", options, "S", secret_hand, space) == []


def test_int_seeds_deal_exactly_as_before() -> None:
    """Reproducible figures: an int seed still drives CPython's Mersenne Twister, drawn in the same order."""
    spec = get_game("elyigit")
    state = spec.new_match(spec.options(), 7)
    assert type(state.rng) is random.Random and state.seed == 7 and state.secret is None
    reference = random.Random(7)
    dealer = reference.choice(state.seats)  # the first dealer is drawn, then the 36 cards shuffled
    deck = [card.code for card in deck_36()]
    reference.shuffle(deck)
    receivers = [state.seats[(state.seats.index(dealer) + k) % 4] for k in range(1, 5)]
    dealt = {seat: sorted(deck[receivers.index(seat)::4]) for seat in state.seats}
    first = state.record()["deals"][0]
    assert first["dealer"] == dealer
    assert {seat: sorted(cards) for seat, cards in first["hands"].items()} == dealt
    assert state.record()["seed"] == 7 and "secret" not in state.record()


def test_the_secret_stream_shuffles_without_bias() -> None:
    """Fisher-Yates over rejection-sampled indices: every order of four cards equally likely
    (chi-square over 24 orders, 48,000 shuffles from a fixed secret; the 0.1% critical value is 49.7)."""
    rng = SecretRandom(FIXED)
    counts = collections.Counter(tuple(rng.sample("ABCD", 4)) if i % 2 else _shuffled(rng) for i in range(48_000))
    assert set(counts) == set(itertools.permutations("ABCD"))
    expected = 48_000 / 24
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 49.7


def _shuffled(rng: random.Random) -> tuple[str, ...]:
    cards = list("ABCD")
    rng.shuffle(cards)
    return tuple(cards)


def test_the_secret_stream_is_keyed_and_copies_continue_it() -> None:
    one, same, other = SecretRandom(FIXED), SecretRandom(FIXED), SecretRandom(MatchSecret(bytes(32)))
    assert [one.getrandbits(64) for _ in range(4)] == [same.getrandbits(64) for _ in range(4)]
    assert one.getrandbits(256) != other.getrandbits(256)
    twin, state_twin = copy.deepcopy(one), SecretRandom(FIXED)
    state_twin.setstate(one.getstate())
    assert twin.random() == one.random() == state_twin.random()
    assert 0.0 <= one.random() < 1.0
    with pytest.raises(TypeError):
        SecretRandom(7)  # type: ignore[arg-type]
    assert "00010203" not in repr(FIXED) and "00010203" not in repr(one.getstate()[0])


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_a_secret_is_in_the_record_only_once_the_match_is_over(game: str) -> None:
    spec = get_game(game)
    # rummy's session is open by default (the table ends it): one hand, so that the match ends
    state = spec.new_match(spec.options(None, {"hands": 1} if game == "rummy" else {}), FIXED)
    state.apply(state.legal_actions()[0])
    unfinished = state.record()
    assert unfinished["seed"] is None and "secret" not in unfinished
    with pytest.raises(RecordError, match="only once the match is over"):
        replay(unfinished)
    play_out(state)
    record = state.record()
    assert record["seed"] is None and record["secret"] == FIXED.hex()
    again = replay(record)  # `nines replay` replays it: the same deals from the secret
    assert again.record() == record


def test_a_bad_secret_in_a_record_is_refused_with_a_reason() -> None:
    spec = get_game("neuf")
    record = play_out(spec.new_match(spec.options(), FIXED)).record()
    with pytest.raises(RecordError, match="64 hexadecimal digits"):
        replay({**record, "secret": "abc"})
    with pytest.raises(RecordError, match="differ"):
        replay({**record, "secret": MatchSecret(bytes(32)).hex()})
