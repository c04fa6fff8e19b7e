"""Views show a seat exactly what it may know; records carry the whole hand and replay."""

from __future__ import annotations

import json
import random

import pytest
from rummy_helpers import position

from nines.cards import JOKER, parse_card
from nines.games import get_game
from nines.games.contract import IllegalAction
from nines.games.rummy import RummyOptions, RummyState
from nines.record import RecordError, replay


def midway(players: int = 4, seed: int = 3, steps: int = 60) -> RummyState:
    state = RummyState(RummyOptions(players=players, hands=2), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        plays = [a for a in legal if a.kind in ("lay", "extend", "swap")]
        state.apply(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    return state


def hide_and_shuffle(state: RummyState, seat: str, seed: int) -> RummyState:
    """The same position as ``seat`` knows it: the stock reordered, the other hands dealt afresh."""
    other = state.clone()
    assert isinstance(other, RummyState)
    deal = other.deal
    rng = random.Random(seed)
    rng.shuffle(deal.stock)
    others = [s for s in other.seats if s != seat]
    loose = [c for s in others for c in deal.hands[s] if not deal.held[s][c]]
    rng.shuffle(loose)
    for s in others:
        keep = list(deal.held[s].elements())
        size = len(deal.hands[s]) - len(keep)
        deal.hands[s] = keep + loose[:size]
        loose = loose[size:]
    other._legal = None
    other._available = None
    return other


@pytest.mark.parametrize("seed", range(6))
def test_a_view_does_not_depend_on_what_the_seat_cannot_see(seed: int) -> None:
    state = midway(players=2 + seed, seed=seed)
    for seat in state.seats:
        twin = hide_and_shuffle(state, seat, seed)
        assert twin.deal.stock != state.deal.stock or len(state.deal.stock) < 2
        assert twin.view(seat).to_dict() == state.view(seat).to_dict()
    assert hide_and_shuffle(state, "1", seed).view(None).to_dict() == state.view(None).to_dict()


def test_what_a_view_holds() -> None:
    state = position(
        {"1": "9H 2S 3S 4S QS", "2": "6C 7C 8C KD", "3": "2H 3H AD KC"},
        table=(("2", "7H 8H JK=9H"),),
        opened=("1",),
        stock="QD AS JD",
        pile="2C 3C",
    )
    state.apply("draw stock")
    state.apply("swap H 9H")
    mine = state.view("1")
    assert mine.hand == tuple(map(parse_card, ["2S", "3S", "4S", "QS", "QD", "JK"]))
    assert mine.drawn == parse_card("QD") and mine.drawn_from == "stock"
    assert mine.held == {"1": (JOKER,)}
    assert mine.indicator == parse_card("4C") and mine.wild_rank == "5"
    assert mine.top_discard == parse_card("3C") and mine.discard_pile == (parse_card("2C"), parse_card("3C"))
    assert mine.stock_size == 2 and mine.hand_sizes == {"1": 6, "2": 4, "3": 4}
    assert mine.opened == ("1", "2") and mine.phase == "play" and not mine.first_round
    assert "discard QD" in mine.legal and "discard JK" not in mine.legal
    (run,) = mine.table
    assert run.id == "H" and run.kind == "run" and run.owner == "2" and run.text == "7H 8H 9H"
    assert [c.code for c in run.wants] == ["6H", "TH"]
    # the others see the swap and the wild held, not the card drawn from the stock
    theirs = state.view("2")
    assert theirs.hand == tuple(map(parse_card, ["KD", "6C", "7C", "8C"]))  # by suit, low to high
    assert theirs.drawn is None and theirs.legal == ()
    assert theirs.held == {"1": (JOKER,)}
    assert [(m.seat, m.action, m.drew, m.took) for m in theirs.moves] == [
        ("1", "draw stock", None, None),
        ("1", "swap H 9H", None, JOKER),
    ]
    spectator = state.view(None)
    assert spectator.hand == () and spectator.legal == ()
    data = json.loads(json.dumps(mine.to_dict()))
    assert data["game"] == "rummy" and data["table"][0]["cards"][2] == {"card": "9H", "stands_for": "9H", "wild": False}
    assert "stock" not in data and "hands" not in data
    with pytest.raises(IllegalAction, match="not a seat"):
        state.view("9")


def test_a_wild_on_the_table_shows_what_it_stands_for() -> None:
    state = position({"1": "2S 3S", "2": "6C 7C 8C KD"}, table=(("2", "7H 8H 5D=9H JK=TH"),), stock="6D 7D")
    cards = state.view("1").table[0].cards
    assert [(c.card.code, c.stands_for.code, c.wild) for c in cards] == [
        ("7H", "7H", False), ("8H", "8H", False), ("5D", "9H", True), ("JK", "TH", True),
    ]


def test_the_record_carries_the_whole_hand() -> None:
    state = position(
        {"1": "9H 2S 3S 4S QS", "2": "6C 7C 8C"},
        table=(("2", "7H 8H JK=9H"),),
        opened=("1",),
        stock="QD AD",
        hands=1,
    )
    for move in ["draw stock", "swap H 9H", "lay 2S 3S 4S", "discard QD", "draw discard", "lay 6C 7C 8C", "discard QD"]:
        state.apply(move)
    record = json.loads(json.dumps(state.record(players={"1": "me", "2": "basic"})))
    deal = record["deals"][0]
    assert deal["indicator"] == "4C" and deal["wild_rank"] == "5" and deal["first_discard"] == "2C"
    assert deal["stock"] == ["QD", "AD"] and deal["preset"] is True
    assert deal["actions"] == [
        {"seat": "1", "action": "draw", "source": "stock", "card": "QD"},
        {"seat": "1", "action": "swap", "set": "H", "card": "9H", "wild": "JK"},
        {"seat": "1", "action": "lay", "cards": ["2S", "3S", "4S"], "set": "S"},
        {"seat": "1", "action": "discard", "card": "QD"},
        {"seat": "2", "action": "draw", "source": "discard", "card": "QD"},
        {"seat": "2", "action": "lay", "cards": ["6C", "7C", "8C"], "set": "C"},
        {"seat": "2", "action": "discard", "card": "QD"},
    ]
    assert deal["result"]["went_out"] == "2" and deal["result"]["points"] == {"1": 35, "2": 0}
    assert [s["id"] for s in deal["table"]] == ["H", "S", "C"]
    assert record["winners"] == ["2"] and record["players"] == {"1": "me", "2": "basic"}


@pytest.mark.parametrize("players", [2, 5, 8])
def test_records_replay_and_a_tampered_record_does_not(players: int) -> None:
    spec = get_game("rummy")
    state = spec.new_match(spec.options(overrides={"players": players, "hands": 2}), seed=players)
    rng = random.Random(players)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.record()))
    for deal in record["deals"]:
        assert deal["stock"] and deal["indicator"] and deal["first_discard"]
        assert all("card" in a for a in deal["actions"] if a["action"] == "draw")
    assert replay(record).record() == state.record()
    bad = json.loads(json.dumps(record))
    bad["deals"][0]["result"]["points"]["1"] += 1
    with pytest.raises(RecordError, match="result"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    discard = next(a for a in bad["deals"][0]["actions"] if a["action"] == "discard")
    discard["card"] = "JK" if discard["card"] != "JK" else "2C"
    with pytest.raises(RecordError):
        replay(bad)


def test_a_clone_is_independent_of_its_original() -> None:
    import copy

    state = midway(players=5, seed=2, steps=40)
    before = json.dumps([state.record(), [state.view(s).to_dict() for s in state.seats]])
    for twin in (state.clone(), copy.deepcopy(state)):
        assert isinstance(twin, RummyState)
        assert twin.record() == state.record()
        rng = random.Random(1)
        while not twin.is_over:
            twin.apply(rng.choice(twin.legal_actions()))
        assert json.dumps([state.record(), [state.view(s).to_dict() for s in state.seats]]) == before
    # and the original still plays the same as a fresh replay of its record
    rng = random.Random(1)
    twin = state.clone()
    state.apply(rng.choice(state.legal_actions()))
    assert twin.record() != state.record()
