"""Every computer player's guard against a rummy hand that never ends.

Seed 002 lets a player throw back the card just taken from the discard pile, and the
standard game rebuilds the stock as often as it runs out, with no limit on turns.  Two
players who each take the top discard and throw it back would then play for ever (two
basic players did exactly that on seed 13).  So no computer player takes the top
discard when it has itself discarded that card earlier in the hand, while the stock has
a card to draw instead: each player can take each card back at most once before it has
thrown it away, so a hand cannot go round the discard pile for ever.  The guard reads
only the seat's view (the hand's public moves), and it is applied to every rummy player
in one place, :func:`guard`, by :func:`nines.bots.make_player`.
"""

from __future__ import annotations

from typing import Any

from ..games.rummy import Draw
from .base import Decision, Player, Reason

TAKE_DISCARD = "draw discard"


def threw_away_before(view: Any) -> bool:
    """The top discard is a card this seat itself discarded earlier in the hand."""
    top = view.top_discard
    if top is None:
        return False
    mine = f"discard {top.code}"
    return any(move.seat == view.seat and move.action == mine for move in view.moves)


class LoopGuard:
    """A rummy player that never takes back from the discard pile a card it threw away this hand."""

    def __init__(self, player: Player) -> None:
        self.player = player

    @property
    def name(self) -> str:
        return self.player.name

    def decide(self, view: Any) -> Decision:
        decision = self.player.decide(view)
        if str(decision.action) == TAKE_DISCARD and view.stock_size > 0 and threw_away_before(view):
            return Decision(
                Draw("stock"),
                Reason("hint.rummy.not_back", f"the stock: I threw the {view.top_discard.code} away earlier this hand, and "
                       "taking it back could send the hand round the discard pile for ever", card=view.top_discard),
            )
        return decision

    def __getattr__(self, name: str) -> Any:
        # everything else is the player's own (budgets, statistics, names); while a copy is being unpickled
        # (a server's thinking process) it has no player yet, and asks for no attribute of it
        player = vars(self).get("player")
        if player is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(player, name)


def guard(game_id: str, player: Player) -> Player:
    """The player as every table, simulation and tournament seats it."""
    return LoopGuard(player) if game_id == "rummy" else player
