"""The Python API: small, typed, and clear about bad input."""

from __future__ import annotations

import random

import pytest

from nines.cards import Card, Suit, parse_cards, parse_deal
from nines.solver import (
    Solver,
    SolverInputError,
    SolverNodeLimit,
    make_position,
    position_from_deal,
    score_cards,
    solve,
)

C = Card.parse
ELY_DEAL = "N:82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942"


def test_bad_input_is_a_value_error() -> None:
    assert issubclass(SolverInputError, ValueError)


def test_solve_and_score_cards_one_call() -> None:
    hands = parse_deal("N:9.-.-.- 8.-.-.- 7.-.-.- 6.-.-.-", "NESW")
    assert solve("elyigit", hands, None, "N").tricks == {"NS": 1, "EW": 0}
    assert score_cards("elyigit", hands, None, "N") == {C("9S"): 1}
    # the nine of hearts is a trump: East may not keep it back (ace low, nine high)
    hands = parse_deal("N:A.-.-.- -.9.-.- 2.-.-.- 3.-.-.-", "NESW")
    assert solve("elyigit", hands, Suit.HEARTS, "N").tricks == {"NS": 0, "EW": 1}


def test_a_trick_in_progress_counts_as_a_remaining_trick() -> None:
    hands = parse_deal("N:-.-.-.- 8.-.-.- 7.-.-.- 6.-.-.-", "NESW", equal_sizes=False)
    result = solve("elyigit", hands, None, "N", [C("9S")])
    assert result.tricks == {"NS": 1, "EW": 0}
    assert result.remaining == 1
    # ace high in Le Neuf: the ace led by West wins the partnership's trick
    hands = parse_deal("N:K.-.-.- Q.-.-.- J.-.-.- -.-.-.-", "NESW", equal_sizes=False)
    assert solve("neuf", hands, None, "W", [C("AS")]).tricks == {"NS": 0, "EW": 1}


def test_le_neuf_three_hands_gives_each_paranoid_value() -> None:
    # S holds the only trumps: against the two others it still takes both tricks
    hands = parse_deal("S:AK.-.-.- -.AK.-.- -.-.AK.-", "SWE")
    result = solve("neuf", hands, Suit.SPADES, "W")
    assert result.tricks == {"S": 2, "W": 0, "E": 0}
    assert result.to_json() == {"tricks": {"S": 2, "W": 0, "E": 0}}
    assert solve("neuf", hands, Suit.SPADES, "W", player="S").tricks == {"S": 2}


def test_four_hand_le_neuf_forms() -> None:
    hands = parse_deal("N:A.-.-.- K.-.-.- Q.-.-.- J.-.-.-", "NESW")
    assert solve("neuf", hands, None, "W").tricks == {"NS": 1, "EW": 0}
    assert solve("neuf", hands, None, "W", form="individual").tricks == {"N": 1, "E": 0, "S": 0, "W": 0}


def test_scores_in_the_result_are_for_the_side_to_play() -> None:
    position = position_from_deal("elyigit", ELY_DEAL, "H", "N")
    result = Solver().solve(position, scores=True)
    assert result.scores is not None
    assert max(result.scores.values()) == result.tricks["NS"]
    assert result.to_json()["scores"] == {card.code: v for card, v in result.scores.items()}
    east = position_from_deal("elyigit", "N:2.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942", "H", "N", "8S")
    east_scores = Solver().score_cards(east)
    assert max(east_scores.values()) == Solver().solve(east).tricks["EW"]


@pytest.mark.parametrize(
    "game, deal, trump, leader, played, form, message",
    [
        ("rummy", ELY_DEAL, "H", "N", "", None, "trick-taking games"),
        ("elyigit", "N:82.8.753.763 64.9743.8A.5", "H", "N", "", None, "4 seats"),
        ("elyigit", "82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942", "H", "N", "", None, "is not a deal"),
        ("elyigit", "N:82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.94Z", "H", "N", "", None, "not a rank"),
        ("elyigit", "N:82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.94", "H", "N", "", None, "same number of cards"),
        ("elyigit", "N:T2.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942", "H", "N", "", None, "deck"),
        ("elyigit", "N:82.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.943", "H", "N", "", None, "dealt twice"),
        ("elyigit", ELY_DEAL, "X", "N", "", None, "not a trump"),
        ("elyigit", ELY_DEAL, "H", "Q", "", None, "not a seat"),
        ("elyigit", ELY_DEAL, "H", "N", "8S", None, "also in N's hand"),
        ("elyigit", ELY_DEAL, "H", "N", "1S", None, "not a card"),
        ("elyigit", ELY_DEAL, "H", "N", "", "three", "form"),
        ("neuf", "S:AK.-.-.- -.AK.-.- -.-.AK.-", "S", "W", "", "individual", "hands"),
        ("neuf", "S:AK.-.-.- -.AK.-.- -.-.AK.-", "S", "W", "QC JC KC", None, "at most 2"),
        ("neuf", "N:-.-.-.- -.-.-.- -.-.-.- -.-.-.-", "S", "W", "", None, "nothing left"),
    ],
)
def test_bad_positions_say_what_is_wrong(game, deal, trump, leader, played, form, message) -> None:
    with pytest.raises(SolverInputError, match=message):
        position_from_deal(game, deal, trump, leader, played, form=form)


def test_hand_sizes_with_a_trick_in_progress() -> None:
    # N led a card: N holds one card fewer than the others, who still hold the same number
    with pytest.raises(SolverInputError, match="one card fewer"):
        position_from_deal("elyigit", "N:2.8.753.763 4.9743.8A.5 753A.6.64.8A 9.52A.92.942", "H", "N", "8S")
    with pytest.raises(SolverInputError, match="one card fewer"):
        position_from_deal("elyigit", "N:2.8.753.763 64.9743.8A.5 75A.6.64.8A 9.52A.92.942", "H", "N", "8S")
    position = position_from_deal("elyigit", "N:2.8.753.763 64.9743.8A.5 753A.6.64.8A 9.52A.92.942", "H", "N", "8S")
    assert position.to_play == "E" and position.tricks_left == 9


def test_an_illegal_card_on_the_table_is_refused_with_the_rule() -> None:
    # Le Neuf: W led a spade; N holds a spade and may not discard the club
    with pytest.raises(SolverInputError, match="follow suit"):
        position_from_deal("neuf", "N:K.-.-.- Q.Q.-.- J.J.-.- -.-.3.-", "NT", "W", "AS 2C")
    # Elyigit: after 2S and 4S, S holds the 7 and the 5 and must beat the four
    with pytest.raises(SolverInputError, match="beat the best card"):
        position_from_deal("elyigit", "N:8.8.753.763 6.9743.8A.5 75A.6.64.8A 9.52A.92.942", "H", "N", "2S 4S 3S")
    # Elyigit: void in spades, E must trump with the two of hearts, not throw a club
    with pytest.raises(SolverInputError, match="allows only 2H"):
        position_from_deal("elyigit", "N:A.-.-.- -.2.-.- 8.-.3.- 7.-.-.4", "H", "N", "9S 3C")


def test_make_position_checks_mappings() -> None:
    hands = {"N": parse_cards("9S"), "E": parse_cards("8S"), "S": parse_cards("7S")}
    with pytest.raises(SolverInputError, match="one hand for each"):
        make_position("elyigit", hands, None, "N")
    hands["W"] = [Card.parse("KS")]
    with pytest.raises(SolverInputError, match="not in the elyigit deck"):
        make_position("elyigit", hands, None, "N")
    with pytest.raises(SolverInputError, match="not a seat"):
        Solver().solve(make_position("neuf", {"S": [C("AS")], "W": [C("KS")], "E": [C("QS")]}, None, "S"), player="N")
    with pytest.raises(SolverInputError):
        Solver(table_mb=0)


def test_a_node_limit_gives_up_cleanly_and_leaves_the_solver_exact() -> None:
    """A caller with a time budget sets ``max_nodes``: the solve raises once past it, keeps
    nothing half-searched, and the same Solver then gives the exact answers."""
    position = position_from_deal(
        "neuf", "N:QJ632.KQ.Q53.Q95 74.9853.KT8.K874 AT85.AJ2.A76.AJ2 K9.T764.J942.T63", "C", "S", form="partners"
    )
    solver = Solver(table_mb=16)
    with pytest.raises(SolverNodeLimit, match="gave up after 10,001 nodes"):
        solver.value(position, "NS", max_nodes=10_000)
    with pytest.raises(SolverNodeLimit):
        solver.score_cards(position, max_nodes=10_000)
    fresh = Solver(table_mb=16)
    assert solver.value(position, "NS") == fresh.value(position, "NS") == 9
    assert solver.score_cards(position) == fresh.score_cards(position)
    assert solver.value(position, "NS", max_nodes=100_000_000) == 9  # a limit not reached changes nothing
    with pytest.raises(SolverInputError, match="max_nodes"):
        solver.value(position, "NS", max_nodes=0)


def test_a_node_limit_bounds_a_whole_solve_every_seat_and_the_scores_together() -> None:
    # twelve cards a hand, after a trick: 1.5 million nodes, a fraction of a second a solve (a full deal takes 2 s)
    deal = "N:QJ632.KQ.Q53.Q9 74.985.KT8.K874 AT85.AJ2.A76.AJ K9.T764.J94.T63"
    individual = position_from_deal("neuf", deal, "C", "S", form="individual")
    exact = Solver(table_mb=16).solve(individual, scores=True)
    # the four paranoid values and the scores share one budget: the exact solve's nodes suffice
    # and one node less does not
    assert Solver(table_mb=16).solve(individual, scores=True, max_nodes=exact.nodes).tricks == exact.tricks
    with pytest.raises(SolverNodeLimit, match=f"max_nodes={exact.nodes - 1:,}"):
        Solver(table_mb=16).solve(individual, scores=True, max_nodes=exact.nodes - 1)
    partners = position_from_deal("neuf", deal, "C", "S", form="partners")
    with pytest.raises(SolverNodeLimit):
        Solver(table_mb=16).solve(partners, max_nodes=1_000)
    with pytest.raises(SolverInputError, match="max_nodes"):
        Solver().solve(partners, max_nodes=-5)


def test_giving_up_at_any_point_never_spoils_later_answers() -> None:
    """Limits that stop the search at every depth, then the exact answer, on many endings."""
    from .reference import NEUF_PARTNERS, random_ending

    rng = random.Random("node-limit")
    solver, exact = Solver(table_mb=8), Solver(table_mb=8)
    for i in range(300):
        hands, trump, leader, played = random_ending(NEUF_PARTNERS, rng, 4 + i % 4, i % 4)
        position = make_position("neuf", hands, trump, leader, played, form="partners")
        try:
            limited = solver.value(position, "NS", max_nodes=rng.randrange(1, 400))
        except SolverNodeLimit:
            limited = None
        value = solver.value(position, "NS")
        assert value == exact.value(position, "NS"), str(position)
        assert limited in (None, value)
