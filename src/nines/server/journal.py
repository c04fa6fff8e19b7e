"""The move journal: every accepted move is stored before it is acknowledged, many tables per commit.

A commit is the slow part of storing a move (SQLite waits for the disk to confirm it; PostgreSQL for
its write-ahead log).  One commit per move would let a process store only as many moves a second as
the disk confirms writes.  So moves are stored by *group commit*: a move that arrives while a commit
is under way waits for the next one, and that next one stores every move that waited, of every
table, in one transaction.  Nothing is acknowledged before its own commit is done, so a move
acknowledged is a move kept; a quiet server still stores a lone move at once (no batching delay).

Each waiting move gets its own answer: stored, refused as a conflict (another process stored that
move of the table first), or the database's failure (an outage).

People first: a person's move (``first=True``) is answered before the computer players' moves of the
same commit, and goes into the commit first when more wait than one commit holds.  The answers wake the
moves' tasks in the order they are given, and each computer player's move then shows itself and the
next computer player decides (a few milliseconds each on the event loop): answered first, the person's
move is applied, shown and acknowledged before any of that, not after it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Protocol

from .store import SeqConflict, StoredAction

__all__ = ["MoveJournal"]

MOST_PER_COMMIT = 500
"""Moves stored in one transaction at most (a long queue is written in several commits)."""


class _Appends(Protocol):
    """What the journal needs of a store (a :class:`~nines.server.store.Store`, or a test's stand-in)."""

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]: ...


class _Waiting:
    __slots__ = ("action", "answer", "first", "table_id")

    def __init__(self, table_id: str, action: StoredAction, answer: asyncio.Future[None], first: bool) -> None:
        self.table_id = table_id
        self.action = action
        self.answer = answer
        self.first = first


class MoveJournal:
    """Stores moves for a :class:`~nines.server.store.Store` by group commit (one per process)."""

    def __init__(self, store: _Appends) -> None:
        self.store = store
        self._waiting: list[_Waiting] = []
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions written (for the statistics: moves per commit)
        self.moves = 0

    async def append(self, table_id: str, action: StoredAction, *, first: bool = False) -> None:
        """Store ``action`` of ``table_id``; returns once it is committed (``first``: a person's move,
        answered before the computer players' moves of its commit).

        Raises :class:`SeqConflict` if another writer stored that move first, or the database's
        error if it could not be reached (the move is then not stored).
        """
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(table_id, action, answer, first))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="move-journal")
        await asyncio.shield(answer)  # a caller that gives up does not cancel the others' commit

    async def _write(self) -> None:
        """Commit what waits, again and again, until nothing waits (one writer at a time)."""
        while self._waiting:
            # people's moves first (a stable sort: each kind keeps its order of arrival)
            waiting = sorted(self._waiting, key=_later) if len(self._waiting) > 1 else self._waiting
            batch, self._waiting = waiting[:MOST_PER_COMMIT], waiting[MOST_PER_COMMIT:]
            try:
                answers: Sequence[SeqConflict | None] = await asyncio.to_thread(
                    self.store.append_actions, [(w.table_id, w.action) for w in batch]
                )
            except Exception as failure:  # noqa: BLE001 - an outage: every move of the batch is refused with it
                for refused in batch:
                    _answer(refused.answer, failure)
                continue
            self.commits += 1
            self.moves += len(batch)
            for stored, conflict in zip(batch, answers, strict=True):
                _answer(stored.answer, conflict)

    async def close(self) -> None:
        """Wait for the commit under way (at shutdown)."""
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer


def _later(waiting: _Waiting) -> bool:
    """The sort key that puts people's moves before computer players'."""
    return not waiting.first


def _answer(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
        # the caller may have given up (a closed socket): the error was still delivered, not lost
        future.add_done_callback(lambda f: f.exception())

