"""Every option of every game has bounds, refused with a reason before anything is built
(a 13 MB trump cycle or a start score of 100,000 once made a match that never ends)."""

from __future__ import annotations

from typing import Any

import pytest

from nines.games import get_game
from nines.games.contract import OptionsError

TOO_MUCH: list[tuple[str, dict[str, Any], str]] = [
    ("neuf", {"trump_cycle": "H," * 6_500_000}, "at most 200"),
    ("neuf", {"trump_cycle": ["H", "D"] * 11}, "at most 20"),
    ("neuf", {"start_score": 100_000}, "from 1 to 99"),
    ("neuf", {"start_score": "9" * 5000}, "at most 200"),
    ("elyigit", {"target": 100_000}, "from 1 to 500"),
    ("elyigit", {"overtrick_points": 11}, "from 0 to 10"),
    ("elyigit", {"undertrick_points": 10**9}, "from 0 to 10"),
    ("rummy", {"hands": 10_000}, "at most 40"),
    ("rummy", {"reshuffles": 11}, "from 0 to 10"),
    ("rummy", {"turns_per_player": 301}, "to 300"),
    ("rummy", {"wild_points": 1001}, "from 0 to 1000"),
    ("rummy", {"unopened_penalty": 10**6}, "from 0 to 1000"),
    ("rummy", {"players": 9}, "2 to 8"),
    ("neuf", {"x" * 10_000: 1}, "unknown option"),
]


@pytest.mark.parametrize(("game", "options", "reason"), TOO_MUCH, ids=[f"{g}-{next(iter(o))[:20]}" for g, o, _ in TOO_MUCH])
def test_out_of_bounds_options_are_refused_with_the_bounds(game: str, options: dict[str, Any], reason: str) -> None:
    with pytest.raises(OptionsError, match=reason) as refused:
        get_game(game).options(None, options)
    assert len(str(refused.value)) < 300  # the error quotes the bound, never the value in full


@pytest.mark.parametrize(("game", "options"), [
    ("neuf", {"trump_cycle": ["S", "H", "D", "C"] * 5, "start_score": 99}),
    ("elyigit", {"target": 500, "overtrick_points": 10, "undertrick_points": 0}),
    ("rummy", {"hands": 40, "reshuffles": 10, "turns_per_player": 300, "wild_points": 1000, "unopened_penalty": None}),
])
def test_the_bounds_themselves_are_allowed(game: str, options: dict[str, Any]) -> None:
    get_game(game).options(None, options)


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_every_preset_is_within_bounds(game: str) -> None:
    spec = get_game(game)
    for name in spec.presets:
        spec.options(name)


@pytest.mark.parametrize("raw", [float("inf"), float("-inf"), float("nan"), 9.99, True, [9], {"n": 9}])
def test_a_whole_number_option_refuses_what_is_not_a_whole_number(raw: Any) -> None:
    # 1e999 in JSON is an infinite float: int() of it raised OverflowError, a 500; 9.99 was taken as 9
    with pytest.raises(OptionsError, match="option ace_points is a whole number"):
        get_game("rummy").options(None, {"ace_points": raw})


@pytest.mark.parametrize(("raw", "taken"), [(9, 9), (9.0, 9), ("9", 9), (" 9 ", 9)])
def test_a_whole_number_option_takes_whole_numbers_however_written(raw: Any, taken: int) -> None:
    assert get_game("rummy").options(None, {"ace_points": raw}).ace_points == taken
