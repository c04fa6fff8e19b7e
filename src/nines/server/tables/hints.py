"""Hints: the move a computer player would make in a seat's place, with its reason.

Asked by the seat to act, at its turn; worked out by the strongest computer player the game
has (the configured order) from that seat's own view, never from more.  One hint at a time per
seat, and the answer is kept per position, so asking again costs no new search
(:class:`~nines.server.guard.limits.HintDesk`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...bots import Player, make_player, players_for
from ...games.contract import Reason
from ..guard.limits import HintDesk
from ..wire.messages import ErrorCode, HintMessage
from .table import Table, TableError

if TYPE_CHECKING:
    from .protocols import Tables

__all__ = ["Hints"]


class Hints:
    """The hints of one manager's tables."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager
        self.desk = HintDesk(manager.config.limits.hint_cache)
        self._players: dict[str, tuple[str, Player] | None] = {}

    def player(self, game_id: str) -> tuple[str, Player] | None:
        """The strongest computer player available for the game (the first in the configured order)."""
        if game_id not in self._players:
            chosen = None
            available = players_for(game_id)
            for name in self.manager.config.hint_players:
                if name in available:
                    chosen = (name, make_player(name, game_id, random.Random(0)))
                    break
            self._players[game_id] = chosen
        return self._players[game_id]

    async def ask(self, table: Table, seat: str | None, seq: int) -> HintMessage:
        if not table.hints:
            raise TableError(ErrorCode.HINTS_OFF, "hints are turned off at this table")
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.hints_players", "hints are for the players at the table"))
        async with table.lock:
            self.manager.check_seq(table, seq)
            if table.state.is_over:
                raise TableError(ErrorCode.MATCH_OVER, "the match is over")
            if table.state.acting_seat != seat:
                raise TableError(ErrorCode.OUT_OF_TURN, f"a hint is for your turn; {table.state.acting_seat} is to act",
                                 key="server.hint_turn", params={"seat": table.state.acting_seat})
            view = table.view(seat)
        kept = self.desk.kept(table.id, seat, seq)
        if kept is not None:  # asked again at the same position: the same answer, no new search
            return kept  # type: ignore[no-any-return]
        chosen = self.player(table.spec.id)
        if chosen is None:
            raise TableError(ErrorCode.HINTS_OFF, Reason("server.hints_none", "no computer player can give hints for this game"))
        if not self.desk.start(table.id, seat):
            raise TableError(ErrorCode.LIMIT, Reason("server.hint_pending", "a hint for your seat is being worked out: it comes in a moment"))
        hint = None
        try:
            name, player = chosen
            decision = await self.manager.think(player.decide, view)
            hint = HintMessage(seq=seq, action=str(decision.action), reason=decision.reason, player=name)
        finally:
            self.desk.finish(table.id, seat, seq, hint)
        return hint
