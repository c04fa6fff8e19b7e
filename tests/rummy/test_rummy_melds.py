"""Runs and monkeys: exact validation, and enumeration checked against brute force."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

import pytest

from nines.cards import JOKER, SUITS, Card, Rank, deck_52, parse_card
from nines.games.contract import IllegalAction
from nines.games.rummy.indicator import Wilds
from nines.games.rummy.melds import (
    HIGH_ACE,
    LOW_ACE,
    MeldError,
    MonkeyShape,
    Placement,
    RunShape,
    canonical_order,
    card_at,
    enumerate_monkeys,
    enumerate_runs,
    fillers,
    read_set,
)

# the indicator 9S makes tens wild
TENS = Wilds(parse_card("9S"))


def placed(text: str) -> list[Placement]:
    return [Placement.parse(word) for word in text.split()]


def shape(text: str, min_size: int = 3, wilds: Wilds = TENS):
    return read_set(placed(text), wilds, min_size)


# -- the indicator -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("indicator", "wild"),
    [("9H", Rank.TEN), ("KS", Rank.ACE), ("AD", Rank.TWO), ("4C", Rank.FIVE), ("QH", Rank.KING)],
)
def test_the_rank_after_the_indicator_is_wild(indicator: str, wild: Rank) -> None:
    wilds = Wilds(parse_card(indicator))
    assert wilds.rank is wild
    assert all(wilds.is_wild(Card(wild, s)) for s in SUITS)
    assert wilds.is_wild(JOKER)  # printed jokers are always wild
    assert not any(wilds.is_wild(c) for c in deck_52() if c.rank is not wild)


def test_a_joker_cannot_be_the_indicator() -> None:
    with pytest.raises(ValueError):
        Wilds(JOKER)


# -- runs ------------------------------------------------------------------------------


def test_ace_low_and_ace_high_runs() -> None:
    low = shape("AH 2H 3H")
    assert isinstance(low, RunShape) and (low.low, low.high) == (LOW_ACE, 3)
    high = shape("QH KH AH")
    assert isinstance(high, RunShape) and (high.low, high.high) == (12, HIGH_ACE)
    assert [p.text for p in shape("AH KH QH").placements] == ["QH", "KH", "AH"]


def test_a_run_does_not_turn_the_corner() -> None:
    with pytest.raises(MeldError, match="K-A-2"):
        shape("KH AH 2H")
    with pytest.raises(MeldError, match="K-A-2"):
        shape("QH KH AH 2H")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("7H 8H TD", "one suit"),  # TD plays as itself (the ten of diamonds)
        ("7H 8H 8H", "once"),
        ("7H 8H JH", "not consecutive"),
        ("7H 8H", "at least 3"),
        ("7H 8D 9C", "one suit"),
    ],
)
def test_what_is_not_a_run(text: str, why: str) -> None:
    with pytest.raises(MeldError, match=why):
        shape(text)


def test_wilds_stand_for_what_they_declare() -> None:
    run = shape("7H JK=8H TC=9H")
    assert isinstance(run, RunShape) and run.suit.value == "H" and (run.low, run.high) == (7, 9)
    assert [p.is_natural for p in run.placements] == [True, False, False]


def test_an_opening_run_may_be_all_wild() -> None:
    run = shape("JK=4C TS=5C TH=6C JK=7C", 4)
    assert isinstance(run, RunShape) and (run.low, run.high) == (4, 7)


def test_a_card_of_the_wild_rank_may_be_played_as_itself() -> None:
    run = shape("8H 9H TH")
    assert all(p.is_natural for p in run.placements)


def test_only_wilds_stand_in() -> None:
    with pytest.raises(MeldError, match="not wild"):
        shape("7H 8H 4C=9H")


def test_a_joker_must_say_what_it_stands_for() -> None:
    with pytest.raises(IllegalAction, match="stands for"):
        Placement.parse("JK")
    with pytest.raises(IllegalAction, match="real card"):
        Placement.parse("TC=JK")


def test_an_ace_at_both_ends_of_the_longest_run() -> None:
    full = " ".join(["AH"] + [f"{r}H" for r in "23456789TJQK"] + ["JK=AH"])
    run = shape(full)
    assert isinstance(run, RunShape) and (run.low, run.high) == (LOW_ACE, HIGH_ACE)


def test_canonical_order_sorts_a_run_and_a_monkey() -> None:
    assert [p.text for p in canonical_order(placed("9H JK=7H 8H"))] == ["JK=7H", "8H", "9H"]
    assert [p.text for p in canonical_order(placed("9C 9S JK=9D"))] == ["9S", "JK=9D", "9C"]


# -- monkeys -------------------------------------------------------------------------


def test_a_monkey_is_one_rank_in_different_suits() -> None:
    monkey = shape("9C 9H 9S")
    assert isinstance(monkey, MonkeyShape) and monkey.rank is Rank.NINE
    assert [p.text for p in monkey.placements] == ["9S", "9H", "9C"]
    assert isinstance(shape("9C 9H JK=9S 9D"), MonkeyShape)
    assert isinstance(shape("JK=9C TC=9H JK=9S"), MonkeyShape)  # all wild, as a run may be (seed 002)


@pytest.mark.parametrize(
    ("text", "min_size", "why"),
    [
        ("9C 9H 9H", 3, "different suits"),
        ("9C 9H", 3, "3 or 4"),
        ("9C 9H 9S", 4, "all four suits"),
    ],
)
def test_what_is_not_a_monkey(text: str, min_size: int, why: str) -> None:
    with pytest.raises(MeldError, match=why):
        shape(text, min_size)


# -- enumeration against brute force ---------------------------------------------------


def brute_force(available: Counter[Card], wilds: Wilds, suits, ranks, least: int, most: int) -> set[tuple[Placement, ...]]:
    """Every sub-hand with every choice of meanings, kept when read_set accepts it."""
    cards = sorted(available.elements(), key=lambda c: (c.is_joker, c.suit.index if c.suit else 0, c.rank or 0))
    found: set[tuple[Placement, ...]] = set()
    seen_subsets: set[tuple[Card, ...]] = set()
    for size in range(least, most + 1):
        for subset in combinations(cards, size):
            if subset in seen_subsets:
                continue
            seen_subsets.add(subset)
            naturals = [c for c in subset if not wilds.is_wild(c)]
            assert naturals, "with at most two wilds every set holds a natural card"
            # every card of a legal set shares the rank of a natural card in it (a monkey) or
            # its suit, fewer places away than the set has cards (a run)
            anchor = naturals[0]
            candidates = [
                c
                for c in deck_52()
                if c.rank == anchor.rank or (c.suit == anchor.suit and _distance(c, anchor) < size)
            ]
            choices = []
            for card in subset:
                options = [Placement(card, m) for m in candidates if m != card]
                if not card.is_joker:
                    options.append(Placement(card, card))
                choices.append(options if wilds.is_wild(card) else [Placement(card, card)])
            for combo in product(*choices):
                try:
                    found_shape = read_set(combo, wilds, least)
                except MeldError:
                    continue
                if isinstance(found_shape, RunShape):
                    if found_shape.suit in suits:
                        found.add(found_shape.placements)
                elif found_shape.rank in ranks:
                    found.add(found_shape.placements)
    return found


def _distance(a: Card, b: Card) -> int:
    """The fewest run positions between two ranks (the ace is at both ends)."""
    spots = {Rank.ACE: (LOW_ACE, HIGH_ACE)}
    pa = spots.get(a.rank, (a.rank.value,))
    pb = spots.get(b.rank, (b.rank.value,))
    return min(abs(x - y) for x in pa for y in pb)


def random_hand(rng: random.Random, max_wilds: int, wilds: Wilds) -> Counter[Card]:
    """A hand built around a run or a monkey, with cards taken out, wilds and near misses put in."""
    suit = rng.choice(SUITS)
    if rng.random() < 0.6:
        low = rng.randint(LOW_ACE, HIGH_ACE - 4)
        core = [card_at(suit, pos) for pos in range(low, low + rng.randint(3, 5))]
        near = [card_at(s, pos) for s in SUITS for pos in range(max(1, low - 2), min(14, low + 6) + 1)]
    else:
        rank = rng.choice(list(Rank))
        core = [Card(rank, s) for s in SUITS]
        near = core + [card_at(suit, min(13, max(2, rank.value + d))) for d in (-2, -1, 1, 2)]
    # the only wilds in the hand are the ones put in below (at most two: brute force stays quick)
    core = [c for c in core if not wilds.is_wild(c)]
    near = [c for c in near if not wilds.is_wild(c)]
    rng.shuffle(core)
    hand: Counter[Card] = Counter(core[: rng.randint(min(2, len(core)), len(core))])
    wild_cards = [JOKER, JOKER] + [Card(wilds.rank, s) for s in SUITS]
    hand.update(rng.sample(wild_cards, rng.randint(1, max_wilds)))
    while sum(hand.values()) < 6:
        hand[rng.choice(near)] += 1
    return hand


@pytest.mark.parametrize("seed", range(60))
def test_enumeration_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    wilds = Wilds(parse_card(rng.choice(["KD", "4S", "9H"])))  # aces, fives or tens wild
    hand = random_hand(rng, 2 if seed % 3 else 1, wilds)
    suits = [s for s in SUITS if rng.random() < 0.8]
    ranks = [r for r in Rank if rng.random() < 0.8]
    least = rng.choice([3, 4])
    most = min(sum(hand.values()), rng.choice([4, 5, 6]))
    enumerated = list(enumerate_runs(hand, wilds, suits, least, most)) + list(
        enumerate_monkeys(hand, wilds, ranks, least, most)
    )
    assert len(enumerated) == len(set(enumerated)), "each set is enumerated once"
    for placements in enumerated:
        assert read_set(placements, wilds, least).placements == placements, "enumerated in written order"
    assert set(enumerated) == brute_force(hand, wilds, suits, ranks, least, most)


def test_enumeration_finds_the_all_wild_runs() -> None:
    hand = Counter({JOKER: 2, parse_card("TS"): 1, parse_card("TH"): 1})
    runs = {" ".join(p.text for p in run) for run in enumerate_runs(hand, TENS, SUITS, 4, 4)}
    # four wilds fill any four-card stretch (low end A to J) of any suit, each set once:
    # which wild sits where is the rule's, not the player's
    assert len(runs) == 4 * 11
    assert "TS=JD TH=QD JK=KD JK=AD" in runs
    assert "TH=8S JK=9S TS JK=JS" in runs  # the ten of spades sits as itself


def test_which_wild_sits_where_is_the_rules_choice() -> None:
    one = shape("JK=7H TC=8H 9H")
    other = shape("TC=7H JK=8H 9H")
    assert one.placements == other.placements
    assert [p.text for p in one.placements] == ["TC=7H", "JK=8H", "9H"]
    # a card that is the very card a place needs sits there as itself
    assert [p.text for p in shape("JK=TS TS=JS 9S").placements] == ["9S", "TS", "JK=JS"]
    assert canonical_order(placed("9H TC=8H JK=7H")) == one.placements
    assert [p.text for p in shape("JK=9D 9S TC=9C", 3).placements] == ["9S", "TC=9D", "JK=9C"]


def test_fillers_are_the_card_itself_or_any_wild() -> None:
    hand = Counter(map(parse_card, ["6H", "JK", "TC", "TC"]))
    assert [p.text for p in fillers(parse_card("6H"), hand, TENS)] == ["6H", "TC=6H", "JK=6H"]
    assert [p.text for p in fillers(parse_card("TC"), hand, TENS)] == ["TC", "JK=TC"]
