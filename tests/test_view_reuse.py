"""A view's plain data may take the unchanged parts of the seat's last view (the server does, after every
move): that must always be exactly the data of the view converted afresh, in every game, at every move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from nines.bots import make_player
from nines.games import get_game

FORMS = [
    ("neuf", None),
    ("neuf", "newfoundland-partners"),
    ("elyigit", None),
    ("rummy", None),
]


@pytest.mark.parametrize(("game", "preset"), FORMS, ids=[f"{g}-{p or 'standard'}" for g, p in FORMS])
def test_a_view_built_on_the_last_one_is_the_view_converted_afresh(game: str, preset: str | None) -> None:
    spec = get_game(game)
    options = spec.presets[preset] if preset else None
    checked = 0
    for seed in range(3):
        state = spec.new_match(options, seed=seed)
        players: dict[str, Any] = {}
        before: dict[str | None, tuple[Any, dict[str, Any]]] = {}
        for _ in range(400):
            for seat in [*state.seats, None]:
                view = state.view(seat)
                reused = view.to_dict(reuse=before.get(seat))
                assert json.dumps(reused) == json.dumps(view.to_dict()), f"seat {seat} at move {len(state.log)} of seed {seed}"
                before[seat] = (view, reused)
                checked += 1
            if state.is_over:
                break
            seat = state.acting_seat
            assert seat is not None  # a match not over has a seat to act
            player = players.setdefault(seat, make_player("random", game, random.Random(f"{seed}:{seat}")))
            state.apply(player.decide(state.view(seat)).action, by=seat)
    assert checked > 1000


@pytest.mark.parametrize(("game", "preset"), FORMS[:2], ids=[f"{g}-{p or 'standard'}" for g, p in FORMS[:2]])
def test_what_a_view_keeps_from_move_to_move_is_what_a_fresh_state_shows(game: str, preset: str | None) -> None:
    """Le Neuf keeps parts of its views (the counts, the trick, the remembered hand, the legal moves) while they
    are unchanged, so that every view shares them: at every move of a match, each seat's view is the view of
    the same position replayed into a new state, which has kept nothing."""
    spec = get_game(game)
    options = spec.presets[preset] if preset else None
    for seed in range(2):
        state = spec.new_match(options, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not state.is_over and moves < 80:
            for seat in [*state.seats, None]:
                state.view(seat)  # every seat's view, as the server makes them after each move
            action = rng.choice(state.legal_actions())
            state.apply(action)
            moves += 1
            fresh = spec.new_match(options, seed=seed)
            for _, done in state.log:
                fresh.apply(done)
            deal = state.deal
            played = {card for trick in [*deal.tricks, *([deal.trick] if deal.trick else [])] for card in trick.cards}
            for seat in [*state.seats, None]:
                view = state.view(seat)
                assert view.to_dict() == fresh.view(seat).to_dict(), f"seat {seat} at move {moves} of seed {seed}"
                if view.remembered is not None:  # the cards of the hand left behind that no trick holds
                    assert set(view.remembered.unplayed) == set(view.remembered.cards) - played
            assert [str(a) for a in state.legal_actions()] == [str(a) for a in fresh.legal_actions()]


def test_the_record_the_server_reads_is_the_record() -> None:
    """``shared_record`` (the server's, read when a deal ends) holds each finished deal's kept record, not a
    copy: the same data as ``record()``, at every move; and ``record()`` is still the caller's own to change."""
    spec = get_game("neuf")
    state = spec.new_match(None, seed=3)
    rng = random.Random(3)
    finished_seen = 0
    while not state.is_over and len(state.log) < 300:
        shared, own = state.shared_record(), state.record()
        assert json.dumps(shared) == json.dumps(own)
        if len(own["deals"]) > 1:
            finished_seen += 1
            own["deals"][0]["actions"].clear()  # a copy: the state's kept record is untouched
            assert state.shared_record()["deals"][0]["actions"]
        state.apply(rng.choice(state.legal_actions()))
    assert finished_seen
