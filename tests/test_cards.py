"""Cards, hands and deals: parsing and formatting round-trip, errors that teach."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nines.cards import (
    JOKER,
    Card,
    NotationError,
    Rank,
    Suit,
    deck_36,
    deck_52,
    deck_54,
    double_deck_54,
    format_deal,
    format_hand,
    parse_card,
    parse_cards,
    parse_deal,
    parse_hand,
    shuffled,
)


@pytest.mark.parametrize(
    "text, code",
    [("9H", "9H"), ("th", "TH"), ("10h", "TH"), ("10♥", "TH"), ("A♠", "AS"), ("kc", "KC"), (" 2d ", "2D"), ("JK", "JK"), ("jk", "JK"), ("Q♧", "QC")],
)
def test_card_parsing_accepts_every_spelling(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "1H", "9X", "HH", "9", "10", "JKR?", "11S", "9HH"])
def test_bad_cards_are_refused_with_a_reason(text):
    with pytest.raises(NotationError, match="not a card"):
        parse_card(text)


def test_decks_have_the_right_cards():
    assert len(deck_52()) == len(set(deck_52())) == 52
    assert len(deck_36()) == 36 and all(c.rank.value <= 9 for c in deck_36())
    assert len(deck_54()) == 54 and deck_54().count(JOKER) == 2
    two = double_deck_54()
    assert len(two) == 108 and two.count(Card(Rank.NINE, Suit.HEARTS)) == 2 and two.count(JOKER) == 4


def test_shuffling_uses_only_the_injected_generator():
    a = shuffled(deck_52(), random.Random(5))
    random.seed(99)  # the global generator must not matter
    b = shuffled(deck_52(), random.Random(5))
    assert a == b and sorted(a) == sorted(deck_52()) and a != deck_52()


def test_hand_notation():
    hand = parse_hand("98.A75.2.643")
    assert [c.code for c in hand] == ["9S", "8S", "AH", "7H", "5H", "2D", "6C", "4C", "3C"]
    assert parse_hand("-.AK10..") == [parse_card("AH"), parse_card("KH"), parse_card("TH")]
    assert format_hand(parse_hand("QAK.-.-.2")) == "AKQ.-.-.2"
    with pytest.raises(NotationError, match="four suits"):
        parse_hand("AK.Q")
    with pytest.raises(NotationError, match="twice"):
        parse_hand("AA...")
    with pytest.raises(NotationError, match="not a rank"):
        parse_hand("AX...")


def test_deal_notation_starts_from_any_seat():
    seats = ("N", "E", "S", "W")
    deal = parse_deal("E:A... K... Q... J...", seats)
    assert deal["E"] == [parse_card("AS")] and deal["W"] == [parse_card("QS")] and deal["N"] == [parse_card("JS")]
    assert format_deal(deal, seats, "E") == "E:A.-.-.- K.-.-.- Q.-.-.- J.-.-.-"


def test_deal_errors():
    seats = ("S", "W", "E")
    with pytest.raises(NotationError, match="seats"):
        parse_deal("X:A... K... Q...", seats)
    with pytest.raises(NotationError, match="3 seats"):
        parse_deal("S:A... K...", seats)
    with pytest.raises(NotationError, match="twice"):
        parse_deal("S:A... A... Q...", seats)
    with pytest.raises(NotationError, match="same number"):
        parse_deal("S:AK... Q... J...", seats)
    with pytest.raises(NotationError, match="deck"):
        parse_deal("S:T... 9... 8...", seats, allowed=deck_36())
    assert parse_deal("S:AK... Q... J...", seats, equal_sizes=False)["S"] == parse_cards("AS KS")


@given(st.permutations(deck_52()), st.integers(0, 3))
def test_deals_round_trip(cards, first_index):
    seats = ("N", "E", "S", "W")
    hands = {seat: cards[i * 13:(i + 1) * 13] for i, seat in enumerate(seats)}
    text = format_deal(hands, seats, seats[first_index])
    again = parse_deal(text, seats)
    assert {s: sorted(h) for s, h in again.items()} == {s: sorted(h) for s, h in hands.items()}
    assert format_deal(again, seats, seats[first_index]) == text


@given(st.sampled_from(deck_54()))
def test_card_codes_round_trip(card):
    assert parse_card(card.code) == card
    assert parse_card(card.pretty.replace("Jkr", "JK")) == card


def test_the_order_key_sorts_as_the_cards_own_order() -> None:
    from nines.cards import card_order

    for seed in range(20):
        cards = deck_52() + [JOKER, JOKER]
        random.Random(seed).shuffle(cards)
        assert sorted(cards, key=card_order) == sorted(cards)


def test_a_hand_sorted_the_usual_way_is_sorted_as_by_any_other_key() -> None:
    """``sort_hand`` with ace high in the usual suit order takes the cards' own order (a shortcut): the same
    hands as the general key gives, jokers and both decks' equal cards included."""
    from nines.cards import SUITS, ace_high, sort_hand

    for seed in range(30):
        rng = random.Random(seed)
        cards = rng.sample(deck_52() + deck_52() + [JOKER, JOKER], rng.randint(0, 40))
        general = sort_hand(cards, lambda rank: ace_high(rank), list(SUITS))  # noqa: PLW0108 -- another function: the general path
        assert sort_hand(cards) == general
        assert sort_hand(cards, ace_high, tuple(SUITS)) == general
