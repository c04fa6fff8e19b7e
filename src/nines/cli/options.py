"""Reading game options from the command line: ``--preset NAME`` and ``-o name=value``."""

from __future__ import annotations

from typing import Any

import typer

from ..games import GameSpec, UnknownGame, get_game
from ..games.contract import RulesError


def game_spec(game_id: str) -> GameSpec:
    try:
        return get_game(game_id)
    except UnknownGame as error:
        raise typer.BadParameter(str(error), param_hint="GAME") from None


def parse_overrides(pairs: list[str] | None) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{pair!r}: write an option as name=value, e.g. -o trump_cycle=S,H,D,C,NT", param_hint="--option")
        overrides[name.strip()] = value.strip()
    return overrides


def build_options(spec: GameSpec, preset: str | None, pairs: list[str] | None, extra: dict[str, Any] | None = None) -> Any:
    overrides: dict[str, Any] = parse_overrides(pairs)
    overrides.update(extra or {})
    try:
        return spec.options(preset, overrides)
    except RulesError as error:
        raise typer.BadParameter(str(error), param_hint="--preset/--option") from None
