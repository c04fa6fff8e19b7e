"""Factories for the search players, ``ismcts``, ``expert`` and rummy's ``planner``, registered in :data:`PLAYER_FACTORIES`.

Each takes the game id and the player's own generator (all its random choices come
from it, so a seeded match replays exactly) and returns the player for that game.
"""

from __future__ import annotations

import random

from .base import Player, UnknownPlayer


def ismcts(game_id: str, rng: random.Random) -> Player:
    """Information-set Monte Carlo: SO-ISMCTS with random playouts, 350 simulations a move, in the trick games;
    in rummy, every option played through the same imagined deals as a race to go out."""
    if game_id == "neuf":
        from .ismcts_neuf import NeufIsmcts

        return NeufIsmcts(rng)
    if game_id == "elyigit":
        from .ismcts_elyigit import ElyigitIsmcts

        return ElyigitIsmcts(rng)
    if game_id == "rummy":
        from .ismcts_rummy import ISMCTS_BUDGET, RummyIsmcts

        return RummyIsmcts(rng, ISMCTS_BUDGET)
    raise UnknownPlayer(f"no ismcts player for {game_id}")


def expert(game_id: str, rng: random.Random) -> Player:
    """Plays from its view by sampling deals consistent with it and evaluating each option in them."""
    if game_id == "neuf":
        from .expert_neuf import NeufExpert

        return NeufExpert(rng)
    if game_id == "elyigit":
        from .expert_elyigit import ElyigitExpert

        return ElyigitExpert(rng)
    if game_id == "rummy":
        from .ismcts_rummy import EXPERT_BUDGET, RummyIsmcts

        return RummyIsmcts(rng, EXPERT_BUDGET, name="expert")
    raise UnknownPlayer(f"no expert player for {game_id}")


def planner(game_id: str, rng: random.Random) -> Player:
    """Nines rummy only: the hand planner with a look one draw ahead (the rummy expert until the race player)."""
    if game_id == "rummy":
        from .expert_rummy import RummyExpert

        player = RummyExpert(rng)
        player.name = "planner"
        return player
    raise UnknownPlayer(f"the planner plays Nines rummy only, not {game_id}")
