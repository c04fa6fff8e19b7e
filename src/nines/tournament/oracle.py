"""The ``oracle``: a player that sees every card.  For measuring, never for playing people.

It is not a normal player: it cannot work from a view, because a view hides the other
hands.  It is therefore not in :data:`nines.bots.PLAYER_FACTORIES` (nothing offers it
at a table); only the tournament engine knows it, and hands it the whole state
explicitly.  What it is for: the gap between ``expert`` and ``oracle`` on the same
deals is what not seeing the cards costs ``expert``; in the trick games, whose oracle is
the exact solver, it also bounds how much better any player working from its view could
do (the oracle's knowledge is unattainable).

Le Neuf: each card is the one the exact solver rates best on the true deal (paranoid
value: the most tricks this player can make against the other two together), and the
exchange compares the solved value of keeping with that of taking the centre hand.
Elyigit's Nines: the solver's card on the true deal; the auction bids the best
solved trick count over the trumps, and names that trump.
Nines rummy has no exact solver: the oracle judges hands by the rummy expert's plan,
but knowing every card it races: it draws and discards so as to go out soonest with
the cards its coming turns will actually draw, and holds back a discard that fits an
opponent's actual hand (:mod:`.oracle_rummy`).  It is no perfect player, so the gap
to the expert bounds from below what not seeing the cards costs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..bots.base import Decision
from ..games.contract import GameState


@runtime_checkable
class SeesAllCards(Protocol):
    name: str

    def decide_state(self, state: GameState, seat: str) -> Decision:
        """Decide for ``seat`` seeing the whole state (tournaments only)."""
        ...


def _oracle(game_id: str, rng: random.Random) -> SeesAllCards:
    if game_id == "neuf":
        from .oracle_neuf import NeufOracle

        return NeufOracle()
    if game_id == "elyigit":
        from .oracle_elyigit import ElyigitOracle

        return ElyigitOracle()
    if game_id == "rummy":
        from .oracle_rummy import RummyOracle

        return RummyOracle(rng)
    raise ValueError(f"no oracle for {game_id}: there is one for neuf, elyigit and rummy only")


ORACLE_FACTORIES: dict[str, Callable[[str, random.Random], Any]] = {"oracle": _oracle}
