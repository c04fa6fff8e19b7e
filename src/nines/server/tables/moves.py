"""Moves: a person's move checked, stored, applied, shown and acknowledged; a computer player's committed.

The server is authoritative.  Every move goes through :meth:`Moves.act` under the table's lock: the
sequence number is checked (stale or repeated messages are refused), the rules check the action for the
sender's seat, the action is stored (by the move journal's group commit), and only then applied and
acknowledged.  After every change each socket receives the view of its own seat (a spectator, the view
of no seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from functools import partial
from typing import Any, Protocol

from pydantic import BaseModel

from ...games.contract import MatchOver, OutOfTurn, Reason, RulesError
from ..logs import log
from ..records.results import Due, results_due, write_results
from ..store.database import SeqConflict, StoredAction, StoreUnavailable
from ..wire.messages import AckMessage, ErrorCode, LastAction
from .protocols import Tables
from .table import Table, TableError, utcnow


class Acknowledges(Protocol):
    """Where a person's move is acknowledged: the socket that sent it (:class:`~nines.server.wire.sockets.SocketConnection`)."""

    def send(self, message: BaseModel) -> None: ...

    async def reply(self, message: BaseModel) -> None: ...

    async def flush(self) -> None: ...


class _Early:
    """What of a person's move was done in the round its commit was answered (:meth:`Moves._stored_now`)."""

    __slots__ = ("acknowledged", "applied", "shown")

    def __init__(self) -> None:
        self.applied = self.shown = self.acknowledged = False


class Moves:
    """Every move at this process's tables: a person's (:meth:`act`), a computer player's (:meth:`commit_for`)."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager
        self._results_writing: set[asyncio.Task[None]] = set()  # people's statistics being written (_write_results)

    async def act(self, table: Table, seat: str | None, seq: int, text: str,
                  acknowledge: Acknowledges | None = None) -> AckMessage:
        """Validate, store, apply and acknowledge one move by ``seat``; the state is unchanged if refused.

        Checked and handed to the journal in the caller's own task (people first: no round of the event
        loop between the person's message and its place in the next commit); from there on the move runs
        to its end in a task of its own, which holds the table's lock until the move is applied and shown
        (a caller that gives up, a socket closing mid-move, never cuts a move in half), then calls
        ``acknowledge`` (the socket's answer, written at once rather than when the caller's task is woken).
        """
        if table.cancelled:
            raise TableError(ErrorCode.NOT_FOUND, Reason("server.table_cancelled", "this table was cancelled by the person who made it"))
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.spectator", "spectators watch; to play, take a seat with an invitation"))
        if table.lock.locked():  # a computer player's move (every seat acts at once in an exchange): people first
            self.manager.journal.hurry(table.id)
        await table.lock.acquire()
        try:
            # no read of the store first for moves other processes made: their events bring them, and a
            # move made elsewhere that this process has not heard of yet is refused as stale when it is
            # stored (SeqConflict), the table then caught up; the read cost a query per move in a thread
            action = self._checked(table, seat, seq, text)
            table.seen_at[seat] = time.monotonic()
            stored = self._stored(table, seat, action)
            early = _Early()
            answer = self.manager.journal.enqueue(table.id, stored, first=True,
                                          then=partial(self._stored_now, table, seat, action, stored, early, acknowledge))
        except BaseException:
            table.lock.release()
            raise
        return await asyncio.shield(self._acted(table, seat, action, stored, answer, acknowledge, early))

    def _stored_now(self, table: Table, seat: str, action: Any, stored: StoredAction, early: _Early,
                    acknowledge: Acknowledges | None) -> None:
        """A person's move, in the round of the event loop its commit is answered (``MoveJournal``'s ``then``):
        applied, shown and acknowledged then, not a round later when its task wakes (each round, under load,
        a handful of computer players' moves and spectators' patches: 14 ms at the median under
        ``benchmarks/server_load.py``).  The lock is the move's, held by its task, which does what is left."""
        self._apply_now(table, seat, action, stored)
        early.applied = True
        if table.state.is_over:
            return  # the match is marked over in the store before it is shown: the move's task does it
        self._show(table, stored.seq)
        early.shown = True
        if acknowledge is not None:
            acknowledge.send(AckMessage(seq=stored.seq, action=str(action)))
            early.acknowledged = True

    def _checked(self, table: Table, seat: str, seq: int, text: str) -> Any:
        """The action ``text`` by ``seat`` at move ``seq``, if the rules allow it now (under the lock)."""
        self.check_seq(table, seq)
        if table.status == "waiting":
            open_seats = " ".join(s.seat for s in table.seats.values() if s.kind == "open")
            raise TableError(ErrorCode.WAITING, f"the match starts when every seat is taken (open: {open_seats})",
                             params={"seats": open_seats.split()})
        state = table.state
        try:
            action = state.parse_action(text)
            state.check(action, by=seat)
        except MatchOver as error:
            raise TableError(ErrorCode.MATCH_OVER, str(error), key=error.key, params=error.params) from None
        except OutOfTurn as error:
            raise TableError(ErrorCode.OUT_OF_TURN, str(error), key=error.key, params=error.params) from None
        except RulesError as error:
            raise TableError(ErrorCode.ILLEGAL, str(error), key=error.key, params=error.params) from None
        return action

    async def _acted(self, table: Table, seat: str, action: Any, stored: StoredAction, answer: asyncio.Future[None],
                     acknowledge: Acknowledges | None, early: _Early) -> AckMessage:
        """A person's move from its commit on: applied, shown, acknowledged (holding the lock ``act`` took), what
        :meth:`_stored_now` did not do already."""
        try:
            await self._apply_stored(table, seat, action, stored, answer, early)
        finally:
            table.lock.release()
        ack = AckMessage(seq=stored.seq, action=str(action))
        if acknowledge is not None:
            if early.acknowledged:
                with contextlib.suppress(Exception):  # a socket that closed meanwhile: its own task ends it
                    await acknowledge.flush()  # (written already, unless something of the socket's waited before it)
            else:
                await acknowledge.reply(ack)
        await self.manager.publish(table, "action")
        await self.manager.owners.moved(table)  # with several processes: the table's owner, if none is known
        return ack

    async def commit_for(self, table: Table, seq: int, seat: str, action: Any, *, stand_in: bool, why: str) -> None:
        """A computer player's decision for ``seat`` (a stand-in's when ``stand_in``), made at ``seq``."""
        async with table.lock:
            if table.seq != seq:
                return  # the table moved on while the player thought
            if not table.state.can_apply(action, by=seat):
                log.warning("player.illegal", table=table.id, seat=seat, action=str(action))
                action = table.state.legal_actions()[0]
            try:
                await self._commit(table, seat, action, stand_in=stand_in)
            except TableError:
                return
        if stand_in:
            log.info("stand_in.moved", table=table.id, seat=seat, seq=seq + 1, why=why)
        await self.manager.publish(table, "action")

    def check_seq(self, table: Table, seq: int) -> None:
        if seq != table.seq:
            raise TableError(
                ErrorCode.STALE,
                f"this message was sent at move {seq} but the table is at move {table.seq}: look again and resend",
                params={"sent": seq, "at": table.seq},
            )

    async def _commit(self, table: Table, by: str, action: Any, *, stand_in: bool = False) -> None:
        """Store, then apply, then show everyone (under the lock; the action was checked)."""
        stored = self._stored(table, by, action, stand_in=stand_in)
        await self._apply_stored(table, by, action, stored, self.manager.journal.enqueue(table.id, stored))

    def _stored(self, table: Table, by: str, action: Any, *, stand_in: bool = False) -> StoredAction:
        """The next move of ``table`` as the journal stores it."""
        seat = table.state.to_act
        assert seat is not None
        return StoredAction(seq=table.seq + 1, seat=seat, by=by, action=str(action), stand_in=stand_in)

    async def _apply_stored(self, table: Table, by: str, action: Any, stored: StoredAction, answer: asyncio.Future[None],
                            early: _Early | None = None) -> None:
        """Once the journal's ``answer`` says the move is stored: apply it and show everyone (under the lock),
        what of that ``early`` says was not done already (:meth:`_stored_now`).
        A person's move (``first`` in the journal) is answered before computer players' moves (people first)."""
        state = table.state
        try:
            await answer
        except SeqConflict:
            # another process took this move first: follow it, and refuse ours as stale
            await self.manager.catch_up(table, force=True)
            raise TableError(ErrorCode.STALE, "another move was made at the same moment: look again and resend") from None
        if early is None or not early.applied:
            self._apply_now(table, by, action, stored)
        if early is not None and early.shown:
            return
        try:
            if state.is_over:
                await asyncio.to_thread(self.manager.store.mark_over, table.id, list(state.winners), table.final_record())
                log.info("table.over", table=table.id, winners=list(state.winners))
        except StoreUnavailable as error:
            # the move is stored and applied: it is shown and acknowledged all the same (refused, it would
            # say "nothing was done" of a move that was, and its resending would be stale). A match not
            # marked over is marked when the table is next rebuilt from the store (see get)
            log.warning("store.after_move", table=table.id, seq=stored.seq, error=str(error))
        self._show(table, stored.seq)

    def _apply_now(self, table: Table, by: str, action: Any, stored: StoredAction) -> None:
        """The stored move applied to the table (under the lock)."""
        seat, stand_in = stored.seat, stored.stand_in
        table.state.apply(action, by=by)
        if stand_in:
            table.stand_ins[stored.seq] = by
        table.last = LastAction(seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)
        if self.manager.broker.shared:
            table.unpublished.append(table.last)  # the next "action" event carries it (Following.publish)
        table.moved_at = utcnow()
        table.turn_changed()
        log.info("action", table=table.id, seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)

    def _show(self, table: Table, seq: int) -> None:
        """An applied move counted (a deal's end), told to the listeners, and shown to every socket (under the lock)."""
        due = results_due(table)
        if due is not None:  # a deal ended: its statistics are written while the move goes on (see results_written)
            self._write_results(table, seq, due)
        for listener in self.manager.action_listeners:
            listener(table)
        table.broadcast()

    def _write_results(self, table: Table, seq: int, due: Due) -> None:
        """The people's statistics of a deal that ended, written in a task of its own, not awaited by the move.

        Awaited, they held the move that ended a deal (its acknowledgement when it was a person's) for the
        round trip to a thread and a transaction of their own; under ``benchmarks/server_load.py`` on SQLite,
        where a write that finds the journal's commit under way sleeps until the database is free, 75 ms on
        average: 2% of a person's moves, a fifth of the slowest 5%.  Whoever reads statistics waits for those
        being written first (:meth:`results_written`), and so do other processes (a move is published after
        them): every deal a socket was shown is in every statistic read after it."""
        async def write() -> None:
            try:
                await write_results(self.manager.store, table, due)
            except StoreUnavailable as error:  # not written: counted again at the table's next count
                log.warning("store.after_move", table=table.id, seq=seq, error=str(error))

        task = asyncio.create_task(write())
        self._results_writing.add(task)
        task.add_done_callback(self._results_writing.discard)

    async def results_written(self) -> None:
        """Once the statistics being written now are written (or failed): what a reader of statistics waits for."""
        while self._results_writing:
            await asyncio.wait(list(self._results_writing))

    async def set_pace(self, table: Table, seat: str | None, seq: int, delay_ms: int) -> None:
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.pace_players", "only the players at the table set its pace"))
        async with table.lock:
            self.check_seq(table, seq)
            await asyncio.to_thread(self.manager.store.set_pace, table.id, delay_ms)
            table.bot_delay_ms = delay_ms
            table.wake.set()
            table.broadcast()
        await self.manager.publish(table, "pace")
