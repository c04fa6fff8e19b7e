"""Play again: after a match, the next one with the same people and computer players.

Any person of the finished match may ask; the next table is made once (by whichever process
asks first) with the same game, options, pace, clock and computer players, dealt from a new
secret.  Each person is asked: one who accepts is seated at once under the same name, one who
declines leaves an open seat.  The next table joins the lobby only once everybody answered.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING

from ...challenge import CHALLENGE_PRESET
from ...games.contract import Reason, options_to_dict
from ...randomness import MatchSecret
from ..logs import log
from ..store.database import SeatTaken, StoredSeat
from ..wire.messages import ErrorCode
from .claims import taken_message
from .table import Table, TableError, hash_token

if TYPE_CHECKING:
    from .protocols import Tables

__all__ = ["DECLINES_KEPT", "PlayAgain"]

DECLINES_KEPT = 10_000  # answers "no" to play again, remembered for the most recent tables


class PlayAgain:
    """The next match of each finished table of one manager, and who answered what."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager
        self.declined: dict[str, dict[str, str]] = {}  # finished table -> seats that declined to play again

    async def again(self, table: Table, seat: str | None, accept: bool) -> tuple[Table, str | None]:
        """After the match: a new table with the same people and computer players.  Each person is
        asked; one who accepts is seated at once (the token is returned); one who declines leaves an
        open seat."""
        if seat is None or table.seats[seat].kind != "human":
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.again_players", "the people who played the match are asked to play again"))
        if not table.state.is_over:
            raise TableError(ErrorCode.WAITING, Reason("server.again_waiting", "play again opens when this match is over"))
        if table.preset == CHALLENGE_PRESET:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.again_challenge", "the daily challenge is played once a day; "
                                                         "tomorrow brings new deals"))
        async with table.lock:
            if table.next_table is None:
                table.next_table = await asyncio.to_thread(self.manager.store.next_table_of, table.id)
            if table.next_table is None:
                new = await self._insert_again(table)
                if await asyncio.to_thread(self.manager.store.set_next_table, table.id, new.id):
                    table.next_table = new.id
                else:  # another process made it first
                    table.next_table = await asyncio.to_thread(self.manager.store.next_table_of, table.id)
                table.again_answers = dict.fromkeys(table.people_seats(), "asked")
        assert table.next_table is not None
        new = await self.manager.get(table.next_table)
        token = None
        if accept:
            token = secrets.token_urlsafe(24)
            person = table.seats[seat].person
            async with new.lock:
                try:
                    await asyncio.to_thread(self.manager.store.take_seat, new.id, seat, hash_token(token), person)
                except SeatTaken:
                    self.manager.set_seats(new, await asyncio.to_thread(self.manager.store.seats_of, new.id))
                    raise TableError(ErrorCode.CONFLICT, taken_message(new, seat)) from None
                held = new.seats[seat]
                held.kind, held.person, held.token_hash = "human", person, hash_token(token)
                new.seen_at[seat] = time.monotonic()
                new.turn_changed()
                new.broadcast()
            await self.manager.publish(new, "seats")
        async with table.lock:
            table.again_answers[seat] = "accepted" if accept else "declined"
            if not accept:
                self.declined.setdefault(table.id, {})[seat] = "declined"
                while len(self.declined) > DECLINES_KEPT:
                    self.declined.pop(next(iter(self.declined)))
            table.broadcast()
            everyone_answered = all(table.again_answers.get(s) in ("accepted", "declined") for s in table.people_seats())
        if table.public and everyone_answered and not new.public:
            # listed in the lobby only now: until each person of the last match answered, their seats were theirs
            await asyncio.to_thread(self.manager.store.set_public, new.id, True)
            new.public = True
            async with new.lock:
                new.broadcast()
        log.info("table.again", table=table.id, next=new.id, seat=seat, accept=accept)
        return new, token

    async def answers(self, table: Table) -> None:
        """Who said yes (seated at the next table under the same name) and who said no."""
        assert table.next_table is not None
        seats = await asyncio.to_thread(self.manager.store.seats_of, table.next_table)
        answers = dict(self.declined.get(table.id, {}))
        for s in seats:
            old = table.seats.get(s.seat)
            if old is not None and old.kind == "human" and s.kind == "human":
                answers[s.seat] = "accepted"
        table.again_answers = answers

    async def _insert_again(self, table: Table) -> Table:
        """The next match: same game, options, pace, clock and computer players; people's seats open
        until each says yes."""
        seats = [StoredSeat(s.seat, "bot", bot=s.bot) if s.kind == "bot" else StoredSeat(s.seat, "open")
                 for s in table.seats.values()]
        options = options_to_dict(table.spec.options_from_record(table.options))
        # the next match is dealt from a new secret (play again after solo practice is no longer practice)
        return await self.manager.insert(
            table.spec, table.preset, options, seats, secret=MatchSecret.new(), seed=None, hints=table.hints,
            # kept out of the lobby until every person of this match has answered (their seats show open till then)
            bot_delay_ms=table.bot_delay_ms, public=False, clock_s=table.clock_s, away_s=table.away_s,
            stand_in=table.stand_in_bot,
        )
