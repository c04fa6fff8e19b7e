"""Rich renderings of each game for the terminal, found by game id."""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import RenderableType

RENDER_MODULES = {
    "neuf": "nines.cli.render.neuf",
    "elyigit": "nines.cli.render.elyigit",
    "rummy": "nines.cli.render.rummy",
}


def _module(game_id: str) -> Any:
    return importlib.import_module(RENDER_MODULES[game_id])


def table(game_id: str, view: Any) -> RenderableType:
    """The table as one seat sees it."""
    rendered: RenderableType = _module(game_id).table(view)
    return rendered


def summary(game_id: str, state: Any) -> RenderableType:
    """A finished (or interrupted) match: scores by deal and the winners."""
    rendered: RenderableType = _module(game_id).summary(state)
    return rendered


def sheet(game_id: str, view: Any) -> RenderableType:
    rendered: RenderableType = _module(game_id).sheet(view)
    return rendered


def moves_help(game_id: str) -> str:
    text: str = _module(game_id).MOVES_HELP
    return text


def card_text(code: str) -> str:
    """A card code with its suit symbol and colour, for Rich markup."""
    if code == "JK":
        return "[bold magenta]Jkr[/]"
    rank, suit = code[:-1], code[-1]
    rank = "10" if rank == "T" else rank
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    colour = "red" if suit in "HD" else "bold"
    return f"[{colour}]{rank}{symbol}[/]"
