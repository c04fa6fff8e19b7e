"""Elyigit's Nines study: solves follow the stated convention, features match a plain reading."""

from __future__ import annotations

import polars as pl
import pytest

from nines.analysis.deals import ELYIGIT_SEATS, elyigit_deal
from nines.analysis.elyigit import HAND_FEATURES, TRICKS_COLUMNS, ElyigitStudy, feature_rows
from nines.analysis.store import Chunk
from nines.cards import SUITS, Card, Suit, ace_low, deck_36, format_deal, parse_hand
from nines.solver import solve


def _reference(cards: list[Card], trump: Suit) -> dict[str, int]:
    """The features read off a hand one card at a time, as a person would count them."""
    length = {suit: sum(card.suit is suit for card in cards) for suit in SUITS}
    side = [suit for suit in SUITS if suit is not trump]
    def rank(value):
        return sum(card.rank.value == value for card in cards)
    return {
        "side_voids": sum(length[s] == 0 for s in side),
        "side_singletons": sum(length[s] == 1 for s in side),
        "nines": rank(9),
        "eights": rank(8),
        "sevens": rank(7),
        "sixes": rank(6),
        "trump_length": length[trump],
        "longest_side_suit": max(length[s] for s in side),
        "voids": sum(n == 0 for n in length.values()),
        "singletons": sum(n == 1 for n in length.values()),
        "longest_suit": max(length.values()),
        "trump_nine": sum(card.rank.value == 9 and card.suit is trump for card in cards),
        "side_nines": sum(card.rank.value == 9 and card.suit is not trump for card in cards),
    }


def _deal_with_north(north: str) -> dict[str, list[Card]]:
    mine = parse_hand(north)
    rest = [card for card in deck_36() if card not in mine]
    return {"N": mine, "E": rest[0:9], "S": rest[9:18], "W": rest[18:27]}


def _table(deals: list[dict[str, list[Card]]]) -> pl.DataFrame:
    columns = {"deal": list(range(len(deals))), "hands": [format_deal(d, ELYIGIT_SEATS, strength=ace_low) for d in deals]}
    columns.update({column: [0] * len(deals) for column in TRICKS_COLUMNS.values()})
    return pl.DataFrame(columns)


def test_features_of_a_hand_made_deal():
    deal = _deal_with_north("98765.9A.-.98")
    rows = feature_rows(_table([deal]))
    assert rows["trump"].to_list() == ["S", "H", "D", "C"]
    spades = rows.row(0, named=True)
    assert {k: spades[k] for k in HAND_FEATURES} == {
        "side_voids": 1, "side_singletons": 0, "nines": 3, "eights": 2, "sevens": 1, "sixes": 1,
        "trump_length": 5, "longest_side_suit": 2,
    }
    diamonds = rows.row(2, named=True)
    assert (diamonds["side_voids"], diamonds["trump_length"], diamonds["longest_side_suit"]) == (0, 0, 5)
    assert (diamonds["trump_nine"], diamonds["side_nines"]) == (0, 3)
    assert rows["chosen"].to_list() == [1, 0, 0, 0]  # the five spades


@pytest.mark.parametrize(
    ("north", "trump"),
    [
        ("876.92A.543.-", "H"),  # three suits of three: the one with the nine
        ("954.962.-.8732", "C"),  # four clubs are longest whatever the honours
        ("954.962.873.2", "H"),  # nine against nine, then six against five
    ],
)
def test_the_card_sense_trump_is_the_longest_suit_then_the_higher_cards(north, trump):
    rows = feature_rows(_table([_deal_with_north(north)]))
    assert rows.filter(pl.col("chosen") == 1)["trump"].to_list() == [trump]


def test_features_match_the_plain_count_on_random_deals():
    deals = [elyigit_deal(21, i) for i in range(120)]
    rows = feature_rows(_table(deals))
    assert rows.height == 4 * len(deals)
    for row in rows.iter_rows(named=True):
        deal = deals[row["deal"]]
        trump = Suit.parse(row["trump"])
        for prefix, seat in (("", "N"), ("dummy_", "S")):
            expected = _reference(deal[seat], trump)
            assert {k: row[prefix + k] for k in expected} == expected, (row["deal"], row["trump"], seat)


def test_each_solve_is_the_declaring_sides_exact_tricks_with_east_leading():
    study = ElyigitStudy(seed=4)
    table = study.solve_chunk(Chunk(0, 3))
    assert table["deal"].to_list() == [0, 1, 2]
    for row in table.iter_rows(named=True):
        hands = elyigit_deal(4, row["deal"])
        assert row["hands"] == format_deal(hands, ELYIGIT_SEATS, strength=ace_low)
        for suit in SUITS:
            expected = solve("elyigit", hands, suit, "E").tricks["NS"]
            assert row[TRICKS_COLUMNS[suit.letter]] == expected


def test_chunks_of_any_size_give_the_same_deals():
    study = ElyigitStudy(seed=9)
    whole = study.solve_chunk(Chunk(0, 7))
    pieces = pl.concat([study.solve_chunk(Chunk(0, 2)), study.solve_chunk(Chunk(2, 3)), study.solve_chunk(Chunk(3, 7))])
    assert whole.equals(pieces)
    assert study.identity()["leader"] == "E" and study.identity()["declarer"] == "N"
