"""What a computer player is: something that turns a seat's view into a decision.

Players see only :meth:`GameState.view` of their own seat (the same view a person's
client gets) and never the state itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..games.contract import Action


@dataclass(frozen=True)
class Decision:
    """An action and a one-line reason a person can read (used for hints)."""

    action: Action
    reason: str = ""


class Player(Protocol):
    @property
    def name(self) -> str: ...

    def decide(self, view: Any) -> Decision:
        """Choose among ``view.legal`` (the text forms of the legal actions)."""
        ...


class UnknownPlayer(ValueError):
    """No computer player has that name, or the player named does not play this game."""
