"""Ratings per game form against OpenSkill's own figures, the stood-in loser, the leaderboard's order."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from nines.ratings import (
    INITIAL,
    SETTLED_DEVIATION,
    Participant,
    Skill,
    display,
    leaderboard,
    match_ranks,
    participants_from_record,
    rate_match,
    shown_change,
)


def _library(teams: list[list[Skill]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def _close(skill: Skill, figure: tuple[float, float]) -> bool:
    return skill.mu == pytest.approx(figure[0], abs=1e-9) and skill.sigma == pytest.approx(figure[1], abs=1e-9)


def test_three_alone_in_le_neuf_ranked_by_the_final_scores_lower_first() -> None:
    record = {"game": "neuf", "seats": ["S", "W", "E"], "sides": ["S", "W", "E"],
              "final_scores": {"S": 3, "W": 0, "E": 7}, "winners": ["W"]}
    ranks = match_ranks(record)
    assert ranks == {"W": 1, "S": 2, "E": 3}
    skills = {"ann": Skill(27.0, 6.0, 4), "bob": INITIAL}
    people = participants_from_record(record, {"S": "ann", "W": "bob"}, {"E": "expert"})
    new = rate_match(people, ranks, skills | {"expert": Skill(30.0, 2.0, 50)})
    figures = _library([[Skill(27.0, 6.0)], [INITIAL], [Skill(30.0, 2.0)]], [2, 1, 3])
    assert set(new) == {"ann", "bob"}  # the computer player is held fixed in a match with people
    assert _close(new["ann"], figures[0][0]) and _close(new["bob"], figures[1][0])
    assert new["ann"].matches == 5 and new["bob"].matches == 1


def test_partnerships_in_elyigit_are_teams_of_two() -> None:
    record = {"game": "elyigit", "seats": ["N", "E", "S", "W"], "sides": ["NS", "EW"],
              "final_scores": {"NS": 52, "EW": 30}, "winners": ["NS"]}
    ranks = match_ranks(record)
    assert ranks == {"NS": 1, "EW": 2}
    skills = {"ann": Skill(26.0, 7.0), "bob": Skill(24.0, 5.0), "cy": INITIAL, "dee": Skill(20.0, 4.0)}
    people = participants_from_record(record, {"N": "ann", "E": "bob", "S": "cy", "W": "dee"}, {})
    new = rate_match(people, ranks, skills)
    figures = _library([[skills["ann"], skills["cy"]], [skills["bob"], skills["dee"]]], [1, 2])
    assert _close(new["ann"], figures[0][0]) and _close(new["cy"], figures[0][1])
    assert _close(new["bob"], figures[1][0]) and _close(new["dee"], figures[1][1])
    assert new["ann"].mu > skills["ann"].mu and new["dee"].mu < skills["dee"].mu


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_rummy_of_two_to_eight_ranked_by_the_totals_with_ties(players: int) -> None:
    seats = [str(i) for i in range(1, players + 1)]
    totals = {seat: (i * 10 if i != 2 else 10) for i, seat in enumerate(seats)}  # seats 2 and 3 tie (10)
    record = {"game": "rummy", "seats": seats, "final_scores": totals, "winners": ["1"]}
    ranks = match_ranks(record)
    assert ranks["1"] == 1
    if players >= 3:
        assert ranks["2"] == ranks["3"] == 2
    skills = {f"p{seat}": Skill(25.0 + int(seat), 8.0 - 0.5 * int(seat)) for seat in seats}
    people = participants_from_record(record, {seat: f"p{seat}" for seat in seats}, {})
    new = rate_match(people, ranks, skills)
    figures = _library([[skills[f"p{seat}"]] for seat in seats], [float(ranks[seat]) for seat in seats])
    for seat, figure in zip(seats, figures, strict=True):
        assert _close(new[f"p{seat}"], figure[0])


def test_a_person_whose_seat_a_stand_in_played_is_rated_as_having_lost() -> None:
    record = {"game": "neuf", "seats": ["S", "W", "E"], "sides": ["S", "W", "E"],
              "final_scores": {"S": 0, "W": 4, "E": 6}, "winners": ["S"]}
    ranks = match_ranks(record)
    people = participants_from_record(record, {"S": "leaver", "W": "bob", "E": "cy"}, {}, stood_in=["S"])
    assert people[0].stood_in
    new = rate_match(people, ranks, {})
    # the leaver: the same match with their seat last
    leaver = _library([[INITIAL]] * 3, [4, 2, 3])[0][0]
    assert _close(new["leaver"], leaver) and new["leaver"].mu < INITIAL.mu
    # the others: the match as it was (the stand-in's win was the seat's, not theirs to gain from)
    actual = _library([[INITIAL]] * 3, [1, 2, 3])
    assert _close(new["bob"], actual[1][0]) and _close(new["cy"], actual[2][0])


def test_a_stood_in_partner_loses_while_the_partnership_won() -> None:
    record = {"game": "elyigit", "seats": ["N", "E", "S", "W"], "sides": ["NS", "EW"],
              "final_scores": {"NS": 50, "EW": 10}, "winners": ["NS"]}
    people = participants_from_record(record, {"N": "gone", "S": "stay"}, {"E": "basic", "W": "basic"}, stood_in=["N"])
    new = rate_match(people, match_ranks(record), {})
    assert new["gone"].mu < INITIAL.mu < new["stay"].mu
    assert "basic" not in new


def test_computer_players_are_rated_among_themselves_when_asked() -> None:
    people = [Participant("basic", "S", True), Participant("expert", "W", True), Participant("random", "E", True)]
    new = rate_match(people, {"W": 1, "S": 2, "E": 3}, {}, rate_computers=True)
    assert new["expert"].mu > new["basic"].mu > new["random"].mu
    # a computer player at two seats of one side is rated once
    twice = [Participant("expert", "NS", True), Participant("basic", "EW", True), Participant("expert", "NS", True),
             Participant("basic", "EW", True)]
    assert set(rate_match(twice, {"NS": 1, "EW": 2}, {}, rate_computers=True)) == {"expert", "basic"}


def test_the_shown_scale_and_the_provisional_mark() -> None:
    newcomer = display(INITIAL)
    assert (newcomer.rating, newcomer.deviation, newcomer.provisional) == (1500, 350, True)
    settled = display(Skill(27.0, SETTLED_DEVIATION / 42 - 0.01, 30))
    assert settled.rating == 1584 and not settled.provisional
    assert shown_change(Skill(25.0, 8.0), Skill(26.0, 7.5)) == 42


def test_the_leaderboard_shows_settled_people_and_every_computer_player_best_first() -> None:
    settled = 5.0
    rows = leaderboard([
        ("newcomer", Skill(40.0, 8.0, 2), False),  # provisional: not shown
        ("ann", Skill(30.0, settled, 40), False),
        ("bob", Skill(30.0, settled - 1, 60), False),  # the same rating, smaller deviation: first
        ("expert", Skill(31.0, 7.0, 12), True),  # provisional, shown: computer players are the marks
        ("cy", Skill(20.0, 3.0, 90), False),
    ])
    assert [r.name for r in rows] == ["expert", "bob", "ann", "cy"]
    assert rows[0].computer and rows[0].provisional and not rows[1].computer
    assert rows[1].as_dict() == {"name": "bob", "rating": 1710, "deviation": 168, "matches": 60, "provisional": False,
                                 "computer": False}


def test_the_server_counts_a_stood_in_seat_by_its_decisions() -> None:
    from types import SimpleNamespace

    from nines.server.tables.challenges import stood_in_seats

    class State:
        def __init__(self) -> None:
            self.log = [("S", "a"), ("W", "b"), ("E", "c"), ("S", "d"), ("W", "e"), ("S", "f")]

        @staticmethod
        def controller_of(seat: str) -> str:
            return seat

    # S decided 3 times, 2 of them by a stand-in (most of the match); W once of 2 (not most)
    table = SimpleNamespace(state=State(), stand_ins={4: "S", 6: "S", 2: "W"})
    assert stood_in_seats(table) == {"S"}  # type: ignore[arg-type]
