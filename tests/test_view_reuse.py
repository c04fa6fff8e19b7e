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
            player = players.setdefault(seat, make_player("random", game, random.Random(f"{seed}:{seat}")))
            state.apply(player.decide(state.view(seat)).action, by=seat)
    assert checked > 1000
