"""The rummy oracle: a race to go out, with the stock's order and the opponents' hands known."""

import random
from collections import Counter

import pytest

from nines.bots import UnknownPlayer, make_player
from nines.bots.expert_rummy import RummyExpert
from nines.cards import parse_card, parse_cards
from nines.games.rummy import Discard, Draw, RummyOptions, RummyState
from nines.tournament import GameSetup, TournamentConfig, run, summarise
from nines.tournament.oracle import ORACLE_FACTORIES, SeesAllCards
from nines.tournament.oracle_rummy import RummyOracle, SeeingReading

from ..rummy.rummy_helpers import position


def _oracle() -> RummyOracle:
    oracle = ORACLE_FACTORIES["oracle"]("rummy", random.Random(1))
    assert isinstance(oracle, SeesAllCards) and isinstance(oracle, RummyOracle)
    return oracle


def test_rummy_oracle_plays_whole_two_player_matches_legally():
    oracle = _oracle()
    basic = make_player("basic", "rummy")
    state = RummyState(RummyOptions(players=2, hands=None), seed=7)  # one hand per player
    decisions = 0
    while not state.is_over:
        seat = state.acting_seat
        if seat == state.seats[0]:
            decision = oracle.decide_state(state, seat)
            assert decision.reason.startswith("seeing every card: ") and "\n" not in decision.reason
            decisions += 1
        else:
            decision = basic.decide(state.view(seat))
        state.apply(decision.action, by=seat)  # raises on an illegal move
    assert decisions > 10 and len(state.score_sheet()) == 2


def test_rummy_oracle_takes_part_in_a_tournament():
    setup = GameSetup("rummy", overrides={"players": "2"})
    summary = summarise(run(TournamentConfig(setup, ("oracle", "expert"), deals=6, seed=2)))
    assert summary.abandoned == 0
    assert summary.player("oracle").decisions > 0 and summary.player("expert").decisions > 0


def test_seeing_the_stock_decides_the_draw():
    # 8H, the stock's next card, makes 6H-9H a run of four; the top discard 5H only 5H-7H.
    state = position(
        {"1": "6H 7H 9H KS QD 3C 2S", "2": "2H 3S 4S 8C 9C TD QC"}, indicator="TC", pile="4C 5H",
        stock="8H 7C 6S 4H", table=(("1", "2D 3D 4D"),),
    )
    decision = _oracle().decide_state(state, "1")
    assert decision.action == Draw("stock") and "8H" in decision.reason
    # the expert, averaging over the unseen cards, takes the sure 5H instead
    assert RummyExpert(random.Random(1)).decide(state.view("1")).action == Draw("discard")


def test_the_oracle_holds_back_a_discard_that_fits_the_opponents_actual_hand():
    # KS would give the opponent JS QS KS AS, a run to open with; 5C fits nothing of theirs.
    state = position(
        {"1": "6H 7H 8H 9H KS 2D 4C 5C", "2": "JS QS AS 9C 8C 6D 4H 2H 5S"}, indicator="2C", pile="4D",
        stock="TH 7C 6S 4S", turn=0,
    )
    state.apply(Draw("stock"), by="1")
    assert RummyExpert(random.Random(1)).decide(state.view("1")).action == Discard(parse_card("KS"))
    decision = _oracle().decide_state(state, "1")
    assert isinstance(decision.action, Discard) and decision.action.card.code != "KS"


def test_the_coming_draws_leave_the_opponents_their_turns():
    state = position(
        {"1": "6H 7H 8H 9H KS 2D 4C 5C", "2": "JS QS AS 9C 8C 6D 4H 2H 5S"}, indicator="2C", pile="4D",
        stock="TH 7C 6S 3D", turn=0,
    )
    reading = SeeingReading(state, "1")
    # drawing TH now, the opponent then draws 7C and this player 6S; taking the 4D, TH goes
    # to the opponent and 7C, 3D come to this player
    assert [c.code for c in reading.coming_draws(drawing_now=True)] == ["6S"]
    assert [c.code for c in reading.coming_draws()] == ["7C", "3D"]
    state.apply(Draw("stock"), by="1")
    assert [c.code for c in SeeingReading(state, "1").coming_draws()] == ["6S"]
    # past the end of the stock nobody knows the order: the expert's look-ahead over the pile decides
    state.deal.stock[:] = parse_cards("7C")
    reading = SeeingReading(state, "1")
    assert reading.coming_draws() == []
    assert reading.next_draws(parse_card("2D")) == Counter(parse_cards("4D 2D"))


@pytest.mark.parametrize(("coming", "thrown"), [("JH", "9S"), ("TS", "KH")])
def test_the_oracle_keeps_the_pair_its_coming_draw_completes(coming: str, thrown: str):
    # 8S 9S and QH KH each wait for one card; the opponent draws 2S, then this player draws `coming`.
    state = position(
        {"1": "8S 9S QH", "2": "2H 3S 4S 8C 9C TD QC"}, indicator="6C", pile="4C AH",
        stock=f"KH 2S {coming} 5S 6H", table=(("1", "2D 3D 4D"),), opened=("1",),
    )
    state.apply(Draw("stock"), by="1")
    decision = _oracle().decide_state(state, "1")
    assert decision.action == Discard(parse_card(thrown)) and "out on the next draw" in decision.reason
    # the expert, not knowing which comes, throws the higher pair's king either way
    assert RummyExpert(random.Random(1)).decide(state.view("1")).action == Discard(parse_card("KH"))


def test_the_oracle_is_not_offered_as_a_player():
    with pytest.raises(UnknownPlayer):
        make_player("oracle", "rummy")
