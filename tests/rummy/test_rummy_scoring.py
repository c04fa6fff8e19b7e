"""Closing a hand, the penalty count, the running totals and the end of the session."""

from __future__ import annotations

import pytest
from rummy_helpers import position

from nines.cards import parse_card, parse_cards
from nines.games.contract import OptionsError
from nines.games.rummy import PRESETS, RummyOptions, Wilds
from nines.games.rummy.scoring import card_points, hand_points, score_hand, session_winners

FIVES = Wilds(parse_card("4C"))


@pytest.mark.parametrize(
    ("card", "points"),
    [("2H", 2), ("9S", 9), ("TD", 10), ("JC", 10), ("QH", 10), ("KS", 10), ("AH", 15), ("5D", 25), ("JK", 25)],
)
def test_what_a_card_left_in_hand_costs(card: str, points: int) -> None:
    assert card_points(parse_card(card), FIVES, RummyOptions()) == points


def test_scoring_options() -> None:
    indian = PRESETS["indian-scoring"]
    assert card_points(parse_card("AH"), FIVES, indian) == 10
    assert card_points(parse_card("JK"), FIVES, indian) == 0
    assert card_points(parse_card("5H"), FIVES, indian) == 0
    assert card_points(parse_card("KH"), FIVES, RummyOptions(court_points=13)) == 13
    with pytest.raises(OptionsError, match="cannot be negative"):
        RummyOptions(wild_points=-1)


def test_a_player_who_never_opened_pays_the_flat_penalty() -> None:
    hand = parse_cards("2H 3H")
    assert hand_points(hand, FIVES, RummyOptions(), opened=True) == 5
    assert hand_points(hand, FIVES, RummyOptions(), opened=False) == 100
    assert hand_points(hand, FIVES, RummyOptions(unopened_penalty=None), opened=False) == 5
    assert hand_points([], FIVES, RummyOptions(), opened=False) == 0
    points = score_hand({"1": [], "2": hand, "3": parse_cards("JK AS")}, ["1", "3"], FIVES, RummyOptions())
    assert points == {"1": 0, "2": 100, "3": 40}


def test_lowest_total_wins_and_ties_share() -> None:
    assert session_winners({"1": 30, "2": 12, "3": 40}) == ["2"]
    assert session_winners({"1": 12, "2": 12, "3": 40}) == ["1", "2"]


def test_a_held_wild_counts_against_its_holder() -> None:
    state = position(
        {"1": "9H 2S 3S 4S QS", "2": "6C 7C 8C"},
        table=(("2", "7H 8H JK=9H"),),
        opened=("1",),
        stock="QD AD",
        hands=1,
    )
    state.apply("draw stock")
    state.apply("swap H 9H")
    state.apply("lay 2S 3S 4S")
    state.apply("discard QD")
    assert state.deal.held["1"]
    state.apply("draw stock")
    state.apply("lay 6C 7C 8C")
    state.apply("discard AD")
    assert state.is_over
    result = state.deal.result
    assert result is not None and result["went_out"] == "2"
    assert result["left"] == {"1": ["QS", "JK"], "2": []}
    assert result["points"] == {"1": 35, "2": 0}
    assert state.winners == ["2"]


def test_running_totals_and_the_end_of_the_session() -> None:
    state = position({"1": "6H 7H 8H 9H", "2": "3C 9C 6C 7C 8C QS AD JK"}, stock="TH KD", hands=2)
    state.apply("draw stock")
    state.apply("lay 6H 7H 8H 9H")
    state.apply("discard TH")
    assert state.totals == {"1": 0, "2": 100}
    assert not state.is_over and state.deal.number == 2
    sheet = state.score_sheet()
    assert sheet == [{"hand": 1, "starter": "1", "went_out": "1", "points": {"1": 0, "2": 100}, "totals": {"1": 0, "2": 100}}]
    # the second hand is dealt from the seed; play it out with the first legal action each time
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert state.deal.number == 2 and state.deal.result is not None
    totals = state.totals
    assert totals == {seat: sum(row["points"][seat] for row in state.score_sheet()) for seat in state.seats}
    low = min(totals.values())
    assert state.winners == [seat for seat in state.seats if totals[seat] == low]


def test_a_session_is_open_by_default_and_a_number_of_hands_is_an_option() -> None:
    assert RummyOptions().open_session and RummyOptions().session_hands is None
    assert RummyOptions(players=5, hands=None).session_hands == 5  # one hand per player
    assert RummyOptions(players=5, hands=2).session_hands == 2
    assert RummyOptions(players=3).fixed_session().session_hands == 3
    with pytest.raises(OptionsError, match="at least one hand"):
        RummyOptions(hands=0)
    with pytest.raises(OptionsError, match="open"):
        RummyOptions(hands="forever")  # type: ignore[arg-type]


def test_a_hand_of_endless_discard_throwbacks_ends_at_the_turn_limit():
    """Two basic players on seed 13, seated without the loop guard, keep taking the top discard
    and throwing it back, so the stock never runs out; under the capped preset the turn limit
    ends the hand, scored as it stands, after exactly 120 turns (the record said 121)."""
    import random
    from dataclasses import replace

    from nines.bots import play_match
    from nines.bots.rummy_basic import RummyBasic
    from nines.games.rummy import PRESETS, RummyState

    state = RummyState(replace(PRESETS["capped"], players=2, hands=1), 13)
    play_match(state, {seat: RummyBasic(random.Random(i)) for i, seat in enumerate(state.seats)})
    result = state.record()["deals"][0]["result"]
    assert state.is_over and result["ended_by"] == "turns" and result["went_out"] is None
    assert state.deal.turn == 60 * 2  # every player had 60 turns
    assert result["turns"] == 120


def test_the_loop_guard_lets_the_same_players_finish_the_standard_hand():
    """The same deal under the standard rules (no caps): seated as every table seats them, the
    basic players never take back a card they threw away, and someone goes out."""
    import random
    from dataclasses import replace

    from nines.bots import make_player, play_match
    from nines.games.rummy import RummyState

    state = RummyState(replace(RummyOptions(), players=2, hands=1), 13)
    play_match(state, {seat: make_player("basic", "rummy", random.Random(i)) for i, seat in enumerate(state.seats)})
    result = state.record()["deals"][0]["result"]
    assert state.is_over and result["ended_by"] == "out" and result["went_out"] in state.seats
    assert result["turns"] == state.deal.turn + 1


def test_the_turn_limit_is_an_option_and_refuses_nonsense():
    import pytest

    from nines.games.contract import OptionsError
    from nines.games.rummy import PRESETS, RummyOptions

    assert RummyOptions().turns_per_player is None and RummyOptions().reshuffles is None  # seed 002
    assert PRESETS["capped"].turns_per_player == 60 and PRESETS["capped"].reshuffles == 2
    with pytest.raises(OptionsError, match="turns_per_player"):
        RummyOptions(turns_per_player=1)
