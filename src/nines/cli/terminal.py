"""Playing a match in the terminal: the human types moves, computer players answer."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.prompt import Prompt

from ..bots import Player
from ..games import GameSpec
from ..games.contract import GameState, RulesError
from . import render


def play_in_terminal(spec: GameSpec, state: GameState, me: str, bots: Mapping[str, Player], console: Console, seed: int, pause: float = 0.0) -> None:
    console.print(f"[bold]{spec.title}[/bold] — {spec.summary}  (seed {seed}; you are {me})")
    console.print(render.moves_help(spec.id))
    deal_seen = None
    while not state.is_over:
        view = state.view(me)
        deal_no = getattr(view, "deal_number", None)
        if deal_seen is not None and deal_no != deal_seen:
            console.rule(f"Deal {deal_seen} is over")
            console.print(render.sheet(spec.id, view))
        deal_seen = deal_no
        acting = state.acting_seat
        if acting != me:
            assert acting is not None
            decision = bots[acting].decide(state.view(acting))
            mover = state.to_act
            state.apply(decision.action, by=acting)
            console.print(f"[cyan]{mover}[/cyan]: {decision.action}")
            _announce_trick(state, me, console)
            if pause:
                time.sleep(pause)
            continue
        console.print()
        console.print(render.table(spec.id, view))
        if not _human_turn(spec, state, me, view, console):
            console.print("Match abandoned.")
            return
    console.rule("Match over")
    console.print(render.summary(spec.id, state))


def _announce_trick(state: GameState, me: str, console: Console) -> None:
    """In trick games, say who took each trick as it completes (a dummy follows play this way)."""
    if state.is_over:
        return
    last = getattr(state.view(me), "last_trick", None)
    trick = getattr(state.view(me), "trick", None)
    if last is not None and trick is not None and not trick.plays and getattr(last, "winner", None):
        console.print(f"[dim]trick to {last.winner}[/dim]")


def _human_turn(spec: GameSpec, state: GameState, me: str, view: Any, console: Console) -> bool:
    """Ask until the human makes a legal move; False if they quit."""
    while True:
        try:
            text = Prompt.ask(f"[bold]{state.to_act}[/bold] to move ({', '.join(view.legal[:12])}{' ...' if len(view.legal) > 12 else ''})")
        except (EOFError, KeyboardInterrupt):
            return False
        word = text.strip().lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?", "h"):
            console.print(render.moves_help(spec.id))
            continue
        if word == "sheet":
            console.print(render.sheet(spec.id, view))
            continue
        if word == "last":
            last = getattr(view, "last_trick", None)
            console.print(f"Last trick: {last.plays} won by {last.winner}" if last else "No trick finished yet in this deal.")
            continue
        try:
            state.apply(text, by=me)
            return True
        except RulesError as error:
            console.print(f"[red]{error}[/red]")
