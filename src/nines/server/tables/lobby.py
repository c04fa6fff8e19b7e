"""The lobby's listing: public tables still in play, from the database, without loading or replaying any."""

from __future__ import annotations

import asyncio
from typing import Any

from ...games import UnknownGame, get_game
from ..store.database import StoredTable
from .protocols import Tables
from .table import utcnow


class Lobby:
    """The public tables of every process, as the lobby lists them."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager

    async def listed(self) -> list[dict[str, Any]]:
        """Public tables still being played and not closed for idleness, most recently active first, as the
        lobby's JSON data (from the database: listing never loads or replays a table).  Built as plain data,
        like the messages' table info (the models' validation and dumps were most of a listing's 22 ms);
        a test holds each entry equal to its model's dump."""
        stored = await asyncio.to_thread(self.manager.store.listed_tables, self.manager.active_since())
        listed = []
        for row in stored:
            live = self.manager.tables.get(row.id)
            if live is not None:
                info = live.info_body()
                invite = live.invite
            else:
                try:
                    spec = get_game(row.game)
                except UnknownGame:
                    continue
                info = self._paused_info(row, spec.id, spec.title)
                invite = row.invite
            listed.append({**info, "invite": invite if info["status"] == "waiting" else None})
        return listed

    def _paused_info(self, row: StoredTable, game: str, title: str) -> dict[str, Any]:
        """A table not in memory as :class:`TableInfo`'s JSON data: nobody is connected to it, nothing moves."""
        moved = row.updated_at or row.created_at
        return {
            "id": row.id, "game": game, "title": title, "preset": row.preset, "options": row.options,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.person if s.kind == "human" else s.bot, "bot": s.bot,
                       "connected": s.kind == "bot", "stand_in": False} for s in row.seats],
            "seq": row.seq, "status": "waiting" if any(s.kind == "open" for s in row.seats) else "playing",
            "hints": row.hints, "bot_delay_ms": row.bot_delay_ms, "public": row.public,
            "created_at": row.created_at.replace(microsecond=0).isoformat() + "Z", "winners": list(row.winners),
            "clock_s": row.clock_s, "away_s": row.away_s or self.manager.config.away_s, "clock": None, "paused": True,
            "moved_ago_s": max(0, int((utcnow() - moved).total_seconds())), "again": None, "practice": row.practice,
        }
