"""The daily challenge: the day's deals, duplicate fairness, matchpoints by hand."""

from __future__ import annotations

import datetime as dt
import json
import random

import numpy as np
import pytest

from nines.bots import make_player
from nines.challenge import (
    CHALLENGES,
    DealSeeded,
    _rounded,
    challenge_over,
    day_secret,
    deal_results,
    matchpoints,
    new_challenge,
    play_challenge,
    standing_rows,
    standing_table,
    standings,
)

KEY = b"k" * 32
DAY = dt.date(2026, 12, 7)


def test_a_days_secret_depends_on_the_key_the_day_and_the_game() -> None:
    one = day_secret(KEY, DAY, "neuf")
    assert one == day_secret(KEY, DAY, "neuf")
    others = {day_secret(KEY, DAY + dt.timedelta(days=1), "neuf"), day_secret(KEY, DAY, "rummy"),
              day_secret(b"x" * 32, DAY, "neuf")}
    assert one not in others and len(others) == 3
    with pytest.raises(ValueError, match="16 bytes"):
        day_secret(b"short", DAY, "neuf")


@pytest.mark.parametrize("game", sorted(CHALLENGES))
def test_everyone_gets_the_same_deals_whatever_is_played(game: str) -> None:
    secret = day_secret(KEY, DAY, game)
    spec = CHALLENGES[game]
    hands = []
    for seed in (1, 2):
        person = make_player("random", game, random.Random(seed))
        results, state = play_challenge(game, secret, person, bot="random")
        record = state.record()
        assert len(results) == spec.deals and challenge_over(game, state)
        hands.append([d["hands"] for d in record["deals"][: spec.deals]])
    assert hands[0] == hands[1]


def test_the_hands_shown_match_the_challenges_options() -> None:
    state = new_challenge("elyigit", day_secret(KEY, DAY, "elyigit"))
    assert state.options.target == 500 and CHALLENGES["elyigit"].seat in state.seats


@pytest.mark.parametrize("game", sorted(CHALLENGES))
def test_two_people_who_make_the_same_moves_get_the_same_result(game: str) -> None:
    secret = day_secret(KEY, DAY, game)
    first, _ = play_challenge(game, secret, make_player("basic", game, random.Random(7)), bot="basic")
    again, _ = play_challenge(game, secret, make_player("basic", game, random.Random(7)), bot="basic")
    assert first == again


def test_the_computer_players_answers_in_a_deal_do_not_depend_on_earlier_deals() -> None:
    # two people who play the first deal differently and then the same from deal 2 on meet the same answers
    game = "neuf"
    secret = day_secret(KEY, DAY, game)
    spec = CHALLENGES[game]
    logs = []
    for seed in (1, 2):
        state = new_challenge(game, secret)
        bots = {s: DealSeeded("basic", game, secret, s) for s in state.seats if s != spec.seat}
        first = make_player("random", game, random.Random(seed))
        later = make_player("basic", game, random.Random(0))
        while len([d for d in state.record()["deals"] if d.get("result")]) < 2:
            seat = state.acting_seat
            assert seat is not None
            view = state.view(seat)
            player = bots.get(seat) or (first if view.deal_number == 1 else later)
            state.apply(player.decide(view).action, by=seat)
        logs.append(state.record()["deals"][1]["actions"])
    assert logs[0] == logs[1]


def test_the_expert_computer_players_are_fair_too() -> None:
    # the real opponents, on one rummy hand (the cheapest of the games for them)
    game = "rummy"
    secret = day_secret(KEY, DAY, game)
    outcomes = []
    for _ in range(2):
        state = new_challenge(game, secret)
        bots = {s: DealSeeded("expert", game, secret, s) for s in state.seats if s != "1"}
        me = make_player("basic", game, random.Random(3))
        while not state.record()["deals"][0].get("result"):
            seat = state.acting_seat
            assert seat is not None
            state.apply((bots.get(seat) or me).decide(state.view(seat)).action, by=seat)
        outcomes.append((deal_results(game, state.record(), "1"), state.record()["deals"][0]["actions"]))
    assert outcomes[0] == outcomes[1]


def test_deal_results_are_higher_for_better_play_in_each_game() -> None:
    neuf = {"game": "neuf", "sides": ["S", "W", "E"], "deals": [{"result": {"score_change": {"S": -2, "W": 1, "E": 3}}}]}
    assert deal_results("neuf", neuf, "S") == [2.0]
    ely = {"game": "elyigit", "sides": ["NS", "EW"], "deals": [{"result": {"score_change": {"NS": 0, "EW": 6}}},
                                                               {"result": None}]}
    assert deal_results("elyigit", ely, "S") == [-6.0]
    rummy = {"game": "rummy", "seats": ["1", "2"], "deals": [{"result": {"points": {"1": 0, "2": 40}}},
                                                             {"result": {"points": {"1": 25, "2": 0}}}]}
    assert deal_results("rummy", rummy, "1") == [0.0, -25.0]


def test_matchpoints_by_hand_with_ties() -> None:
    results = {
        "ann": [3.0, 0.0, 5.0],
        "bob": [3.0, 2.0, -1.0],
        "cy": [1.0, 2.0, 5.0],
        "dee": [-4.0, 1.0],  # left before the third deal
    }
    points = matchpoints(results)
    # deal 1: ann and bob tie on top (2 beaten, 1 tie of 3 others); cy beats dee; dee beats nobody
    assert points["ann"].deals[0] == pytest.approx(100 * 2.5 / 3)
    assert points["bob"].deals[0] == pytest.approx(100 * 2.5 / 3)
    assert points["cy"].deals[0] == pytest.approx(100 * 1 / 3)
    assert points["dee"].deals[0] == 0.0
    # deal 2: bob and cy tie on top; dee beats ann
    assert points["bob"].deals[1] == points["cy"].deals[1] == pytest.approx(100 * 2.5 / 3)
    assert points["dee"].deals[1] == pytest.approx(100 / 3) and points["ann"].deals[1] == 0.0
    # deal 3: three played; ann and cy tie on top (1 beaten + a tie, of 2)
    assert points["ann"].deals[2] == points["cy"].deals[2] == pytest.approx(75.0)
    assert points["bob"].deals[2] == 0.0 and points["dee"].deals[2] is None
    assert points["dee"].percent == pytest.approx((0 + 100 / 3) / 2)
    order = standings(results)
    assert [s.name for s in order] == ["cy", "bob", "ann", "dee"]
    assert order[0].as_dict() == {"name": "cy", "percent": pytest.approx(round((100 / 3 + 250 / 3 + 75) / 3, 2)),
                                  "deals": [33.33, 83.33, 75.0]}


def test_a_lone_result_scores_half_and_equal_results_share_the_points() -> None:
    assert matchpoints({"ann": [1.0]})["ann"].percent == 50.0
    all_equal = matchpoints({"a": [2.0, 2.0], "b": [2.0, 2.0], "c": [2.0, 2.0]})
    assert {s.percent for s in all_equal.values()} == {50.0}


def pairwise_standings(results: dict[str, list[float | None]]) -> list[dict[str, object]]:
    """The rules read literally, as a reference: each result compared with every other on its deal."""
    length = max((len(r) for r in results.values()), default=0)
    scores = {}
    for name, row in results.items():
        deals: list[float | None] = []
        for index in range(length):
            mine = row[index] if index < len(row) else None
            others = [r[index] for other, r in results.items() if other != name and index < len(r) and r[index] is not None]
            if mine is None:
                deals.append(None)
            elif not others:
                deals.append(50.0)
            else:
                beaten = sum(1 for o in others if o < mine)
                tied = sum(1 for o in others if o == mine)
                deals.append(100.0 * (beaten + 0.5 * tied) / len(others))
        played = [d for d in deals if d is not None]
        total = 0.0
        for d in played:
            total += d
        scores[name] = (total / len(played) if played else 0.0, deals)
    order = sorted(scores, key=lambda n: (-scores[n][0], n))
    return [{"name": n, "percent": round(scores[n][0], 2), "deals": [None if d is None else round(d, 2) for d in scores[n][1]]}
            for n in order]


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_standings_are_the_pairwise_ones_with_ties_and_deals_not_played(seed: int) -> None:
    rng = random.Random(seed)
    deals = rng.choice([1, 3, 6, 8])
    spread = rng.choice([1, 2, 4, 40])  # few distinct results (many ties) to many
    results: dict[str, list[float | None]] = {}
    for index in range(rng.choice([1, 2, 3, 30, 200])):
        row: list[float | None] = [float(rng.randint(-spread, spread)) for _ in range(deals)]
        if rng.random() < 0.2:
            row = row[: rng.randrange(deals + 1)]  # left early (or never finished a deal)
        if rng.random() < 0.1 and row:
            row[rng.randrange(len(row))] = None
        results[f"p{rng.randrange(10**6):06d}-{index}"] = row
    expected = pairwise_standings(results)
    assert standing_rows(results) == expected
    assert json.loads(standing_table(results).json()) == expected
    assert [s.as_dict() for s in standings(results)] == expected


def test_the_fast_standings_of_nobody_and_of_empty_entries() -> None:
    assert standing_rows({}) == [] and standing_table({}).json() == b"[]"
    odd = {'b\u00e9a "q"\\': [1.0], "\u4e00": [2.0]}
    assert json.loads(standing_table(odd).json()) == standing_rows(odd) == pairwise_standings(odd)  # type: ignore[arg-type]
    assert standing_rows({"b": [], "a": []}) == [{"name": "a", "percent": 0.0, "deals": []}, {"name": "b", "percent": 0.0, "deals": []}]
    assert standing_rows({"ann": [1.0, None], "bob": [2.0]}) == [s.as_dict() for s in standings({"ann": [1.0, None], "bob": [2.0]})]


def test_the_fast_rounding_is_pythons() -> None:
    rng = random.Random(5)
    values = [rng.uniform(0, 100) for _ in range(20_000)]
    values += [k / 1000 for k in range(100_001)]  # every half of a hundredth, and the doubles just beside them
    values += [100 * (b + 0.5 * t) / n for n in range(1, 60) for b in range(n + 1) for t in range(n + 1 - b)]
    values += [sum(rng.choice([0.0, 12.5, 25.0, 100 / 3, 50.0, 200 / 3, 87.5, 100.0]) for _ in range(d)) / d
               for d in (3, 6, 7) for _ in range(3000)]
    assert _rounded(np.array(values)).tolist() == [round(v, 2) for v in values]
