"""What a computer player is: something that turns a seat's view into a decision.

Players see only :meth:`GameState.view` of their own seat (the same view a person's
client gets) and never the state itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..games.contract import Action, Reason

__all__ = ["Decision", "Player", "Reason", "UnknownPlayer"]


@dataclass(frozen=True)
class Decision:
    """An action and a one-line reason a person can read (used for hints).

    The reason is a :class:`Reason`: its English sentence, and a message key (``hint.*``) with parameters
    that a page says in the player's language (``web/static/hints.json``); a parameter may itself be a
    :class:`Reason`, a phrase said in the same language."""

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
