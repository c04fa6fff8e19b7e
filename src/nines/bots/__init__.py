"""Computer players for every game, chosen by name, and the loop that lets them play.

Names: ``random`` (every game), ``basic`` (a sound rule-based player per game); more
players register themselves in :data:`PLAYER_FACTORIES`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping

from ..games import get_game
from ..games.contract import GameState
from .base import Decision, Player, UnknownPlayer
from .random_player import RandomPlayer

PlayerFactory = Callable[[str, random.Random], Player]


def _basic(game_id: str, rng: random.Random) -> Player:
    if game_id == "neuf":
        from .neuf_basic import NeufBasic

        return NeufBasic()
    if game_id == "elyigit":
        from .elyigit_basic import ElyigitBasic

        return ElyigitBasic()
    if game_id == "rummy":
        from .rummy_basic import RummyBasic

        return RummyBasic(rng)
    raise UnknownPlayer(f"no basic player for {game_id}")


def _random(game_id: str, rng: random.Random) -> Player:
    return RandomPlayer(get_game(game_id).state_type.parse_action, rng)


# name -> factory(game_id, rng); stronger players add themselves here
PLAYER_FACTORIES: dict[str, PlayerFactory] = {"random": _random, "basic": _basic}

from . import strong as _strong  # noqa: E402  (the search players register here)

PLAYER_FACTORIES.update({"ismcts": _strong.ismcts, "expert": _strong.expert, "planner": _strong.planner})


@functools.cache
def players_for(game_id: str) -> tuple[str, ...]:
    """The names of the computer players that play this game (those whose factory accepts it)."""
    names = []
    for name, factory in PLAYER_FACTORIES.items():
        try:
            factory(game_id, random.Random(0))
        except UnknownPlayer:
            continue
        names.append(name)
    return tuple(names)


def make_player(name: str, game_id: str, rng: random.Random | None = None) -> Player:
    """The computer player ``name`` for this game; an unknown name or a player of other games is refused
    with the names of the players this game has."""
    factory = PLAYER_FACTORIES.get(name)
    if factory is None:
        raise UnknownPlayer(f"unknown player {name!r}; the players for {game_id} are: {', '.join(players_for(game_id))}")
    try:
        player = factory(game_id, rng or random.Random(0))
    except UnknownPlayer:
        raise UnknownPlayer(
            f"{name!r} does not play {game_id}; the players for {game_id} are: {', '.join(players_for(game_id))}"
        ) from None
    from .loop_guard import guard

    return guard(game_id, player)


def play_match(state: GameState, players: Mapping[str, Player], max_actions: int = 1_000_000) -> GameState:
    """Let the players finish the match; each decides from its own seat's view only."""
    for _ in range(max_actions):
        if state.is_over:
            return state
        seat = state.acting_seat
        assert seat is not None
        decision = players[seat].decide(state.view(seat))
        state.apply(decision.action, by=seat)
    raise RuntimeError("the match did not finish")


__all__ = ["Decision", "Player", "PLAYER_FACTORIES", "UnknownPlayer", "make_player", "play_match", "players_for"]
