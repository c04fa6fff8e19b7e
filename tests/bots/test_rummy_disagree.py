"""The rollouts of ``benchmarks/rummy_disagree.py``: a choice played to the hand's end from the true position."""

import runpy
from pathlib import Path

from nines.games.rummy import Draw

from ..rummy.rummy_helpers import position

DISAGREE = runpy.run_path(str(Path(__file__).resolve().parents[2] / "benchmarks" / "rummy_disagree.py"))
rollout = DISAGREE["rollout"]


def _state():
    # seat 1 goes out at once with the 9H on the pile (6H-9H opens, the KS is thrown last);
    # seat 2 has not opened, so it pays the flat penalty
    return position(
        {"1": "6H 7H 8H KS", "2": "2S 3D 4H 9C TD QC AH"}, indicator="4C", pile="9H", stock="QD 5D 6D 7D 8D 2C 3C JS",
    )


def test_a_rollout_finishes_the_hand_from_the_true_position_and_leaves_it_alone():
    state = _state()
    before = (list(state.deal.stock), {s: list(h) for s, h in state.deal.hands.items()}, len(state.log))
    # taking the 9H goes out whatever the stock holds: seat 2, never opened, pays the penalty
    for shuffle in range(3):
        assert rollout(state, "1", Draw("discard"), shuffle, "planner", 7) == 100.0
    assert (list(state.deal.stock), {s: list(h) for s, h in state.deal.hands.items()}, len(state.log)) == before


def test_both_choices_meet_the_same_shuffle():
    state = _state()
    # the same shuffle and players give the same result (so two choices are compared on the same luck) ...
    results = [rollout(state, "1", Draw("stock"), shuffle, "planner", 11) for shuffle in range(6)]
    again = [rollout(state, "1", Draw("stock"), shuffle, "planner", 11) for shuffle in range(6)]
    assert results == again
    # ... and the stock is shuffled afresh for each: drawing from it, seat 1 does not always go out first
    assert len(set(results)) > 1 and max(results) == 100.0
