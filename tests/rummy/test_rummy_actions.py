"""Nines rummy actions: text forms that round-trip, record forms, ordering, teaching errors."""

from __future__ import annotations

import pytest

from nines.cards import parse_card
from nines.games.contract import IllegalAction
from nines.games.rummy import Discard, Draw, Extend, Lay, Placement, RummyState, Swap, parse_rummy_action
from nines.games.rummy.actions import action_from_record

TEXTS = [
    "draw stock",
    "draw discard",
    "lay 7H 8H JK=9H TH",
    "lay TS=4C TH=5C JK=6C JK=7C",
    "lay 9S JK=9H 9C",
    "extend H JK=6H",
    "extend 9 9D",
    "extend T TC",
    "swap H 9H",
    "swap 9 9S",
    "discard 4C",
    "discard JK",
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_forms_round_trip(text: str) -> None:
    action = parse_rummy_action(text)
    assert str(action) == text
    assert parse_rummy_action(str(action)) == action
    assert RummyState.parse_action(text) == action
    assert action_from_record(action.to_record()) == action
    assert hash(action) == hash(parse_rummy_action(text))


def test_parsing_is_lenient_and_canonical() -> None:
    assert parse_rummy_action("LAY th 9h jk=8h 7h") == parse_rummy_action("lay 7H JK=8H 9H TH")
    assert str(parse_rummy_action("lay 10h 9h 8h 7h")) == "lay 7H 8H 9H TH"
    assert str(parse_rummy_action("lay 9c 9s jk=9d")) == "lay 9S JK=9D 9C"
    assert str(parse_rummy_action("extend h 6♥")) == "extend H 6H"
    assert str(parse_rummy_action("extend 10 jk=tc")) == "extend T JK=TC"
    assert str(parse_rummy_action("lay qh kh ah")) == "lay QH KH AH"
    assert parse_rummy_action("lay 9H TH=9H JK=8H") == Lay((Placement.parse("9H"), Placement.parse("TH=9H"), Placement.parse("JK=8H")))


def test_record_forms() -> None:
    assert Draw("stock").to_record() == {"action": "draw", "source": "stock"}
    assert parse_rummy_action("lay 7H 8H JK=9H").to_record() == {"action": "lay", "cards": ["7H", "8H", "JK=9H"]}
    assert Extend("H", Placement.parse("JK=6H")).to_record() == {"action": "extend", "set": "H", "card": "JK=6H"}
    assert Swap("H", parse_card("9H")).to_record() == {"action": "swap", "set": "H", "card": "9H"}
    assert Discard(parse_card("4C")).to_record() == {"action": "discard", "card": "4C"}
    # facts the state adds to a record entry (the card drawn, the set laid, the wild taken) are ignored
    assert action_from_record({"seat": "1", "action": "draw", "source": "stock", "card": "9H"}) == Draw("stock")
    assert action_from_record({"seat": "1", "action": "swap", "set": "H", "card": "9H", "wild": "JK"}) == Swap("H", parse_card("9H"))


def test_actions_of_every_kind_sort_together() -> None:
    actions = [parse_rummy_action(t) for t in TEXTS]
    ordered = sorted(actions)
    kinds = [a.kind for a in ordered]
    assert kinds == sorted(kinds, key=["draw", "lay", "extend", "swap", "discard"].index)
    assert sorted(ordered) == ordered


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "empty move"),
        ("draw", "draw stock"),
        ("draw hand", "draw stock"),
        ("lay", "lay 7H"),
        ("lay 7H JK 9H", "stands for"),
        ("lay 7H 8H 9Z", "not a card"),
        ("extend H", "extend"),
        ("extend X 6H", "not a set"),
        ("swap H", "swap H 9H"),
        ("swap H JK", "natural card"),
        ("discard", "discard 4C"),
        ("discard 4C 5C", "one card"),
        ("play 9H", "not a Nines rummy move"),
    ],
)
def test_malformed_moves_say_what_to_write(text: str, hint: str) -> None:
    with pytest.raises(IllegalAction, match=hint):
        parse_rummy_action(text)
