"""The games, each a pure rules package implementing :mod:`nines.games.contract`.

:func:`get_game` finds a game by its id (``neuf``, ``elyigit``, ``rummy``) and returns its
:class:`GameSpec`: everything generic code (command line, server, tournaments, replay)
needs to create and drive a match without knowing the game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..randomness import DealSource
from .contract import GameState, OptionsError, options_from_mapping

# game id -> module defining SPEC; a game is added here and nowhere else
GAME_MODULES: dict[str, str] = {
    "neuf": "nines.games.neuf.spec",
    "elyigit": "nines.games.elyigit.spec",
    "rummy": "nines.games.rummy.spec",
}


@dataclass(frozen=True)
class GameSpec:
    """How to make and describe matches of one game."""

    id: str
    title: str
    summary: str
    state_type: type[GameState]
    options_type: type
    presets: Mapping[str, Any]
    default_preset: str = "standard"

    def options(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Any:
        """Options from a named preset (default: the standard game) with overrides applied."""
        name = preset or self.default_preset
        if name not in self.presets:
            raise OptionsError.of(
                "options.preset", f"unknown preset {name!r} for {self.id}; the presets are: {', '.join(self.presets)}",
                name=name, allowed=", ".join(self.presets),
            )
        return options_from_mapping(self.options_type, dict(overrides or {}), base=self.presets[name])

    def options_from_record(self, values: Mapping[str, Any]) -> Any:
        return options_from_mapping(self.options_type, values)

    def new_match(self, options: Any = None, seed: DealSource = 0) -> GameState:
        """A match dealt from an int seed (reproducible) or a :class:`~nines.randomness.MatchSecret`."""
        return self.state_type(options if options is not None else self.options(), seed)


def unattended(options: Any) -> Any:
    """Options for a match nobody watches (simulations, tournaments): a session the table would
    end (rummy's open session) gets a fixed number of hands instead."""
    fixed = getattr(options, "fixed_session", None)
    return fixed() if callable(fixed) else options


def computers_alone(options: Any) -> Any:
    """Options for a table of computer players alone, which nobody there can end: a fixed session (as
    :func:`unattended`) and hands that end (rummy's capped hands where none are set: a hand under the
    seed's rules can lock, and computer players would then play it for ever)."""
    options = unattended(options)
    capped = getattr(options, "capped_hands", None)
    return capped() if callable(capped) else options


class UnknownGame(ValueError):
    """No game has that id."""


def available_games() -> list[str]:
    """Ids of the games whose rules are installed."""
    found = []
    for game_id in GAME_MODULES:
        try:
            get_game(game_id)
        except UnknownGame:
            continue
        found.append(game_id)
    return found


def get_game(game_id: str) -> GameSpec:
    module_name = GAME_MODULES.get(str(game_id).lower())
    if module_name is None:
        raise UnknownGame(f"unknown game {game_id!r}; the games are: {', '.join(GAME_MODULES)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise UnknownGame(f"the game {game_id!r} is not available in this version") from None
        raise
    spec: GameSpec = module.SPEC
    return spec
