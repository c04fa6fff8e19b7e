"""One conformance test for every game (in the spirit of OpenSpiel's random playouts).

For each installed game and preset: legal actions are sorted, unique and round-trip
through their text form; applying an action to a clone gives the same state; refused
actions leave everything unchanged; the record replays to itself and is plain JSON.
"""

import json
import random

import pytest

from nines.games import available_games, get_game
from nines.games.contract import RulesError
from nines.record import rebuild, replay

# the standard game of each: two long playouts; every other preset: one shorter one
CASES = [
    (game, preset, (2, 250) if preset == get_game(game).default_preset else (1, 80))
    for game in available_games()
    for preset in get_game(game).presets
]


@pytest.mark.slow
@pytest.mark.parametrize("game, preset, budget", CASES, ids=[f"{g}-{p}" for g, p, _ in CASES])
def test_random_playouts_respect_the_contract(game, preset, budget):
    spec = get_game(game)
    seeds, max_steps = budget
    for seed in range(seeds):
        state = spec.new_match(spec.options(preset), seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over and steps < max_steps:
            legal = state.legal_actions()
            assert legal, "a match that is not over has a legal action"
            assert len(set(legal)) == len(legal)
            texts = [str(a) for a in legal]
            assert all(state.parse_action(t) == a for t, a in zip(texts, legal, strict=True))
            view = state.view(state.acting_seat)
            assert sorted(view.legal) == sorted(texts)
            json.dumps(view.to_dict())
            json.dumps(state.view(None).to_dict())
            # the right move from the wrong seat is refused and changes nothing
            before = _fingerprint(state)
            wrong = next(s for s in state.seats if s != state.acting_seat)
            with pytest.raises(RulesError):
                state.apply(legal[0], by=wrong)
            with pytest.raises(RulesError):
                state.apply("no-such-move at all")
            assert _fingerprint(state) == before
            action = rng.choice(legal)
            twin = state.clone()
            state.apply(action, by=state.acting_seat)
            twin.apply(str(action))
            assert _fingerprint(twin) == _fingerprint(state)
            steps += 1
        record = json.loads(json.dumps(state.record()))
        if state.is_over:
            assert replay(record).record() == record
        else:  # an unfinished match rebuilds to the same position
            assert _fingerprint(rebuild(record)) == _fingerprint(state)


def _fingerprint(state) -> str:
    """The action log and what every seat and a spectator see: equal states give equal prints."""
    seats = [*state.seats, None]
    return json.dumps([[str(a) for _, a in state.log], [state.view(s).to_dict() for s in seats]], sort_keys=True)
