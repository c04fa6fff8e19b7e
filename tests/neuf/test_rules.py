"""Le Neuf rules on hand-made positions (RULES.md, chapter Le Neuf)."""

import random

import pytest

from nines.bots import make_player, play_match
from nines.cards import parse_card
from nines.games.contract import IllegalAction, MatchOver, OptionsError, OutOfTurn, copy_record
from nines.games.neuf import Exchange, Keep, NeufOptions, NeufState
from nines.games.tricks import Play

from .positions import SUITED, position


def play(state, *codes):
    for code in codes:
        state.apply(Play(parse_card(code)))


def test_exchange_starts_left_of_the_dealer_and_goes_clockwise():
    state = position(**SUITED, dealer="E")
    assert state.to_act == "S"  # S is on E's left (clockwise S, W, E)
    state.apply(Keep())
    assert state.to_act == "W"
    state.apply(Keep())
    assert state.to_act == "E"
    state.apply(Keep())
    assert state.deal.phase == "play" and state.to_act == "S"  # first lead left of dealer


def test_dealer_exchanges_first_variant_still_leads_left_of_dealer():
    state = position(**SUITED, dealer="E", dealer_exchanges_first=True)
    assert state.to_act == "E"
    for _ in range(3):
        state.apply(Keep())
    assert state.to_act == "S"


def test_a_later_player_takes_the_hand_a_previous_player_left():
    state = position(**SUITED, dealer="E")
    spades, hearts, clubs = state.deal.hands["S"], state.deal.hands["W"], state.deal.centre
    state.apply(Exchange())  # S takes the clubs, leaves the spades
    assert sorted(state.deal.hands["S"]) == sorted(clubs)
    assert state.view("W").centre_from == "S"
    state.apply(Exchange())  # W takes the spades S left
    assert sorted(state.deal.hands["W"]) == sorted(spades)
    state.apply(Keep())
    # the last hand in the centre (W's hearts) is set aside unseen
    assert sorted(state.deal.set_aside) == sorted(hearts)


def test_views_show_an_exchanger_exactly_the_hand_they_left():
    state = position(**SUITED, dealer="E")
    spades = sorted(state.deal.hands["S"])
    state.apply(Exchange())
    s_view = state.view("S")
    assert list(s_view.remembered.cards) == spades and s_view.remembered.now_with == "centre"
    assert state.view("W").remembered is None and state.view("E").remembered is None
    state.apply(Exchange())  # W takes S's old hand: S now knows W's hand
    assert state.view("S").remembered.now_with == "W"
    assert state.view("W").remembered.now_with == "centre"
    state.apply(Keep())
    assert state.view("W").remembered.now_with == "set-aside"
    # a spectator sees no hand and no memory
    spectator = state.view(None)
    assert spectator.hand == () and spectator.remembered is None


def test_must_follow_suit_and_the_error_says_so():
    state = position(s="AK2.Q.J.T", w="Q3.A.K.J", e="J4.K.A.Q", spare="T5.J.Q.K", dealer="E", exchange=False)
    assert state.deal.phase == "play" and state.to_act == "S"
    play(state, "2S")
    assert [str(a) for a in state.legal_actions()] == ["play QS", "play 3S"]
    before = state.record()
    with pytest.raises(IllegalAction, match="must follow suit"):
        state.apply(Play(parse_card("AH")))
    with pytest.raises(IllegalAction, match="not in W's hand"):
        state.apply(Play(parse_card("AS")))
    assert state.record() == before


def test_void_may_play_anything_and_highest_trump_wins():
    # trump is hearts in deal 1 of the standard cycle
    state = position(s="AKQ...2", w="2..AKQ.", e="34.2.2.", spare="-.-.-.-", dealer="E", exchange=False)
    assert state.deal.trump.value == "H"
    play(state, "AS")
    assert len(state.legal_actions()) == 1  # W must follow with 2S
    play(state, "2S")
    play(state, "4S")
    assert state.deal.won["S"] == 1 and state.to_act == "S"


def test_trump_beats_the_led_suit():
    state = position(s="A.K.2.", w="-.2.A.K", e="K.A..2", spare="-.-.-.-", dealer="E", exchange=False)
    play(state, "AS")
    play(state, "2H")  # W is void in spades and ruffs
    play(state, "KS")
    assert state.deal.won["W"] == 1 and state.to_act == "W"


def test_no_trumps_highest_of_led_suit_wins():
    opts = {"trump_cycle": ("NT",), "exchange": False}
    state = position(s="2.A..", w="3...A", e="-.K.2.", spare="-.-.-.-", dealer="E", **opts)
    play(state, "2S", "3S", "KH")
    assert state.deal.won["W"] == 1


def test_out_of_turn_is_refused_and_changes_nothing():
    state = position(**SUITED, dealer="E")
    before = state.record()
    with pytest.raises(OutOfTurn, match="not W's turn: S is to act"):
        state.apply(Keep(), by="W")
    with pytest.raises(IllegalAction, match="exchange"):
        state.apply(Play(parse_card("AS")))
    with pytest.raises(IllegalAction, match="not a Le Neuf move"):
        state.apply("bid 7")
    assert state.record() == before


def _finish_deal_with(state, tricks):
    """Force a deal result: give each seat its number of tricks (test helper)."""
    deal = state.deal
    deal.won = dict(tricks)
    deal.tricks = [None] * 13
    state._finish_deal()


def test_quota_scoring_and_the_falling_total():
    state = NeufState(NeufOptions(), seed=3)
    _finish_deal_with(state, {"S": 6, "W": 4, "E": 3})
    assert state.scores == {"S": 7, "W": 9, "E": 10}
    sheet = state.score_sheet()
    assert [row["total"] for row in sheet] == [27, 26]
    assert sheet[1]["trump"] == "H" and state.deal.trump.value == "D"  # the cycle moves on


def test_match_ends_at_zero_and_equal_lowest_are_joint_winners():
    state = NeufState(NeufOptions(start_score=2), seed=3)
    _finish_deal_with(state, {"S": 6, "W": 6, "E": 1})
    assert state.is_over and state.scores == {"S": 0, "W": 0, "E": 5}
    assert state.winners == ["S", "W"]
    with pytest.raises(MatchOver):
        state.apply(Keep())


def test_lowest_score_wins_when_two_cross_zero():
    state = NeufState(NeufOptions(start_score=2), seed=3)
    _finish_deal_with(state, {"S": 7, "W": 6, "E": 0})
    assert state.winners == ["S"] and state.scores["S"] == -1


def test_instant_win_house_rule_ends_the_match_during_play():
    opts = {"instant_win": True, "start_score": 1, "exchange": False}
    # no trumps, S holds every spade and leads them: nobody can follow, S takes each trick
    state = position(s="AKQJT98765432...", w=".AKQJT98765432..", e="..AKQJT98765432.", dealer="E",
                     trump_cycle=("NT",), **opts)
    for _ in range(5):
        play(state, state.deal.hands["S"][0].code, state.deal.hands["W"][0].code, state.deal.hands["E"][0].code)
        if state.is_over:
            break
    # S needed 5 tricks (one over the quota of 4) to reach 0 from 1
    assert state.is_over and state.winners == ["S"] and state.scores["S"] == 0
    assert state.deal.result["instant_win"] == "S" and len(state.deal.tricks) == 5


def test_newfoundland_partnerships_score_by_side():
    state = NeufState(NeufOptions(form="partners"), seed=4)
    assert state.seats == ("N", "E", "S", "W") and state.deal.phase == "play"  # no spare, no exchange
    assert all(len(h) == 13 for h in state.deal.hands.values())
    _finish_deal_with(state, {"N": 4, "S": 4, "E": 3, "W": 2})
    assert state.scores == {"NS": 7, "EW": 10}


def test_four_player_individual_quota_three():
    state = NeufState(NeufOptions(form="individual"), seed=4)
    _finish_deal_with(state, {"N": 5, "S": 4, "E": 3, "W": 1})
    assert state.scores == {"N": 7, "E": 9, "S": 8, "W": 11} and sum(state.scores.values()) == 35


@pytest.mark.parametrize(
    "options, message",
    [
        ({"form": "five"}, "form must be"),
        ({"trump_cycle": ("X",)}, "trump_cycle"),
        ({"form": "partners", "exchange": True}, "spare hand"),
        ({"form": "individual", "dealer_exchanges_first": True}, "needs the exchange"),
        ({"quota": 5}, "below 13"),
        ({"first_dealer": "N"}, "first_dealer"),
    ],
)
def test_inconsistent_options_are_refused(options, message):
    with pytest.raises(OptionsError, match=message):
        NeufOptions(**options)


def test_trump_cycle_accepts_symbols_and_lowercase():
    assert NeufOptions(trump_cycle=("♠", "h", "nt")).trump_cycle == ("S", "H", "NT")


def test_cut_is_made_by_the_dealers_right_and_dealing_rotates():
    state = NeufState(NeufOptions(first_dealer="S"), seed=9)
    assert state.deal.cut["by"] == "E"  # E is on S's right
    _finish_deal_with(state, {"S": 4, "W": 4, "E": 5})
    assert state.deal.dealer == "W" and state.deal.cut["by"] == "S"


def test_parse_action_round_trips():
    for text in ["exchange", "keep", "play 9H", "play TS"]:
        assert str(NeufState.parse_action(text)) == text
    assert str(NeufState.parse_action("10h")) == "play TH"
    assert NeufState.parse_action("play 9h") == Play(parse_card("9H"))


def test_a_record_handed_out_is_the_callers_to_change() -> None:
    """Each finished deal's record is kept, and :meth:`record` hands out a copy of it (``copy_record``): changing
    the copy changes neither the match nor the next record."""
    state = NeufState(NeufOptions(start_score=2), seed=5)
    play_match(state, {seat: make_player("random", "neuf", random.Random(i)) for i, seat in enumerate(state.seats)})
    first = state.record()
    kept = copy_record(first)
    first["deals"][0]["hands"]["S"].clear()
    first["deals"][0]["tricks"][0]["cards"] = []
    first["deals"][0]["result"]["tricks"]["S"] = 99
    assert state.record() == kept
    # the copy shares no dict or list with what it copied
    def containers(value: object) -> list[int]:
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        return [id(value)] * isinstance(value, dict | list) + [i for item in inner for i in containers(item)]

    again = state.record()
    assert again == kept and not set(containers(again)) & set(containers(kept))
