"""The solver against a plain brute-force minimax (tests/solver/reference.py) on random endings.

Every game and form, with and without trumps, from every seat on lead and from tricks
in progress: 10,400 endings of 1 to 5 tricks in all, each chunk reproducible from its seed.
"""

from __future__ import annotations

import random

import pytest

from nines.solver import Solver, make_position

from .reference import ALL_GAMES, ELYIGIT, NEUF3, NEUF_PARTNERS, Game, brute_scores, brute_value, random_ending

CHUNKS = 5
# endings per chunk by number of tricks; four-hand follow-suit endings branch the most
MIX_CHEAP = {1: 150, 2: 250, 3: 100, 4: 16, 5: 2}
MIX_FOUR_HANDS = {1: 170, 2: 250, 3: 90, 4: 10}


def mix_for(game: Game) -> dict[int, int]:
    return MIX_CHEAP if game in (ELYIGIT, NEUF3) else MIX_FOUR_HANDS


def test_the_endings_add_up_to_ten_thousand() -> None:
    total = sum(CHUNKS * sum(mix_for(game).values()) for game in ALL_GAMES)
    assert total >= 10_000


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_solver_matches_brute_force(game: Game, chunk: int) -> None:
    rng = random.Random(f"{game.name}/{game.form}/{chunk}")
    solver = Solver(table_mb=8)
    checked_scores = 0
    for tricks, count in mix_for(game).items():
        for i in range(count):
            # a quarter of the endings start from a trick in progress
            in_progress = rng.randrange(1, len(game.seats)) if i % 4 == 3 else 0
            hands, trump, leader, played = random_ending(game, rng, tricks, in_progress)
            position = make_position(game.name, hands, trump, leader, played, form=game.form)
            # partnerships: NS; the paranoid forms: one seat per ending, in turn
            sides = ["NS"] if game.form == "partners" else [game.seats[i % len(game.seats)]]
            for side in sides:
                counted = frozenset(position.side_seats(side))
                expected = brute_value(game, position.hands, trump, leader, played, counted)
                assert solver.value(position, side) == expected, f"{position} for {side}"
            if tricks <= 2 or (tricks == 3 and i % 8 == 0):
                mover = position.to_play
                counted = frozenset(position.side_seats(position.side_of(mover)))
                expected_scores = brute_scores(game, position.hands, trump, leader, played, counted)
                assert solver.score_cards(position) == expected_scores, str(position)
                checked_scores += 1
    assert checked_scores > 100


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_every_paranoid_value_and_both_sides(game: Game) -> None:
    """All seats of the paranoid forms, and the partnership result as a whole."""
    rng = random.Random(f"all-seats/{game.name}/{game.form}")
    solver = Solver(table_mb=8)
    for i in range(60):
        tricks = 1 + i % 3
        hands, trump, leader, played = random_ending(game, rng, tricks, i % len(game.seats))
        position = make_position(game.name, hands, trump, leader, played, form=game.form)
        result = solver.solve(position)
        expected = {
            side: brute_value(game, position.hands, trump, leader, played, frozenset(position.side_seats(side)))
            for side in position.sides
        }
        assert result.tricks == expected, str(position)


def test_five_trick_partnership_endings() -> None:
    """A few of the largest endings in the four-hand follow-suit form, trumps and no trumps."""
    rng = random.Random("five tricks, four hands")
    solver = Solver(table_mb=8)
    for trump_choice in ("random", None):
        hands, trump, leader, played = random_ending(NEUF_PARTNERS, rng, 5, 0, trump=trump_choice)
        position = make_position("neuf", hands, trump, leader, played, form="partners")
        expected = brute_value(NEUF_PARTNERS, position.hands, trump, leader, played, frozenset("NS"))
        assert solver.value(position, "NS") == expected, str(position)
