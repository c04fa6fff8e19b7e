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

And the computer players' moves of a commit are answered a few at a time, one handful per round of the
event loop (:data:`BOTS_PER_ROUND`): each woken move applies itself, is shown to every socket and lets
the next computer player decide (about 2 ms of the loop's time), so a commit of forty such moves answered
at once held the loop for a whole round of some 80 ms, and a person's next move that arrived meanwhile
waited that long to be read at all.  The loop reads its sockets between rounds: paced, a person's move is
read within a handful of computer players' moves, and joins the next commit ahead of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from ..logs import log
from .database import SeqConflict, StoredAction

__all__ = ["MoveJournal"]

MOST_PER_COMMIT = 500
"""Moves stored in one transaction at most (a long queue is written in several commits)."""

BOTS_PER_ROUND = 2
"""Computer players' moves answered in one round of the event loop at most (see the module's docstring).  Two,
not four: the rounds are shorter, so a person's move is read and answered sooner, for the same moves a
second (``benchmarks/server_load.py``)."""

MOST_HURRIED = 1_000
"""Tables remembered as hurried (:meth:`MoveJournal.hurry`) whose move has not come yet, at most."""


class _Appends(Protocol):
    """What the journal needs of a store (a :class:`~nines.server.store.database.Store`, or a test's stand-in)."""

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]: ...


class _Waiting:
    __slots__ = ("action", "answer", "first", "table_id", "then")

    def __init__(self, table_id: str, action: StoredAction, answer: asyncio.Future[None], first: bool,
                 then: Callable[[], None] | None = None) -> None:
        self.table_id = table_id
        self.action = action
        self.answer = answer
        self.first = first
        self.then = then


class MoveJournal:
    """Stores moves for a :class:`~nines.server.store.database.Store` by group commit (one per process).

    Commits run one after another in the journal's own threads (one per commit that may be under way, never
    behind the requests' database work in the default pool).  When one ends, the thread takes the
    moves that came meanwhile and starts the next commit at once, and hands the answers of the one that
    ended to the event loop through one ``call_soon_threadsafe``: each move's task is woken in the loop's
    next round.  (When the loop started each next commit, the commits waited for the loop's turn: under
    ``benchmarks/server_load.py`` a commit took 14 ms and began 39 ms after the one before, the loop busy
    with the last commit's moves; a person's move waited 80 ms for its commit.  Through
    ``asyncio.to_thread``, a writer task and a shield around each answer, a move was woken four rounds
    after its commit.)
    """

    def __init__(self, store: _Appends, *, writers: int = 1) -> None:
        self.store = store
        self.writers = writers
        """Commits under way at once at most (see :func:`writers_for`); a second one starts only for a person's
        move that finds a commit under way."""
        # the commits' own threads: in the default pool they waited behind every request's database work (one
        # client's 64 statistics requests at once made a person's move wait 208 ms for its commit instead of 3 ms)
        self._threads = ThreadPoolExecutor(max_workers=writers, thread_name_prefix="nines-commit")
        self._lock = threading.Lock()  # the moves waiting and the writers' count: the loop adds, the commit threads take
        self._waiting: list[_Waiting] = []
        self._writing = 0  # commit threads under way, or about to start
        self._idle = asyncio.Event()  # set while no commit is under way (``close`` waits for it)
        self._idle.set()
        self._paced: deque[tuple[str, asyncio.Future[None], SeqConflict | None]] = deque()  # computer players' answers not given yet
        self._hurried: set[str] = set()  # tables where a person waits for a computer player's move being committed
        self._pacing = False  # a round's handful of them is due
        self.commits = 0  # transactions written (for the statistics: moves per commit)
        self.moves = 0

    async def append(self, table_id: str, action: StoredAction, *, first: bool = False) -> None:
        """Store ``action`` of ``table_id``; returns once it is committed (``first``: a person's move,
        answered before the computer players' moves of its commit).

        Raises :class:`SeqConflict` if another writer stored that move first, or the database's
        error if it could not be reached (the move is then not stored).  A caller that gives up (its
        task cancelled) cancels only its own wait: the commit goes on, and may store the move.
        """
        await self.enqueue(table_id, action, first=first)

    def enqueue(self, table_id: str, action: StoredAction, *, first: bool = False,
                then: Callable[[], None] | None = None) -> asyncio.Future[None]:
        """:meth:`append` in two: the move joins the next commit now, and the future returned is its answer.

        ``then`` (a person's move): called on the event loop as soon as the move is stored, in the round its
        commit is answered, before any task its answer wakes (a round later) runs: what the move does once
        stored is done then, not when its task wakes.  Not called if the move was refused."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._waiting.append(_Waiting(table_id, action, answer, first, then))
            # a quiet journal: the commit starts in the loop's next round, with what came meanwhile; where the
            # database takes several commits at once, a person's move does not wait for the one under way
            start = not self._writing or (first and self._writing < self.writers)
            if start:
                self._writing += 1
        if start:
            self._idle.clear()
            loop.call_soon(self._start, loop)
        return answer

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.run_in_executor(self._threads, self._commits, loop)

    def _take(self) -> list[_Waiting]:
        """What waits (people's moves first, at most one commit's worth); nothing, and not writing any more,
        when nothing waits."""
        with self._lock:
            if not self._waiting:
                self._writing -= 1
                return []
            # a stable sort: each kind keeps its order of arrival
            waiting = sorted(self._waiting, key=_later) if len(self._waiting) > 1 else self._waiting
            batch, self._waiting = waiting[:MOST_PER_COMMIT], waiting[MOST_PER_COMMIT:]
            return batch

    def _commits(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread: one transaction for each batch, then its answers handed to the event loop, and the
        next batch at once, until nothing waits."""
        while batch := self._take():
            try:
                answers: Sequence[SeqConflict | None] | None = self.store.append_actions(
                    [(w.table_id, w.action) for w in batch])
                failure: BaseException | None = None
            except Exception as error:  # noqa: BLE001 - an outage: every move of the batch is refused with it
                answers, failure = None, error
            try:
                loop.call_soon_threadsafe(self._answered, batch, answers, failure)
            except RuntimeError:  # the event loop is closed (the process stopped): nobody waits
                with self._lock:
                    self._writing -= 1
                return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._quiet)

    def _answered(self, batch: list[_Waiting], answers: Sequence[SeqConflict | None] | None,
                  failure: BaseException | None) -> None:
        """On the event loop: every move of the commit answered (in the batch's order: people first)."""
        if answers is None:
            for waiting in batch:
                _answer(waiting.answer, failure)
            return
        self.commits += 1
        self.moves += len(batch)
        for waiting, conflict in zip(batch, answers, strict=True):
            if waiting.first or waiting.table_id in self._hurried:
                self._hurried.discard(waiting.table_id)
                _answer(waiting.answer, conflict)
                if waiting.then is not None and conflict is None:
                    try:
                        waiting.then()
                    except Exception:  # noqa: BLE001 - its task, woken by the answer, does what is left
                        log.exception("journal.then_failed", table=waiting.table_id, seq=waiting.action.seq)
            else:
                self._paced.append((waiting.table_id, waiting.answer, conflict))
        if self._paced and not self._pacing:
            self._pacing = True
            asyncio.get_running_loop().call_soon(self._answer_paced)

    def _answer_paced(self) -> None:
        """On the event loop: this round's handful of computer players' answers; the next handful in the next
        round (after the loop has read its sockets)."""
        for _ in range(min(BOTS_PER_ROUND, len(self._paced))):
            _, answer, conflict = self._paced.popleft()
            _answer(answer, conflict)
        if self._paced:
            asyncio.get_running_loop().call_soon(self._answer_paced)
        else:
            self._pacing = False

    def hurry(self, table_id: str) -> None:
        """A person waits for ``table_id``, whose lock a computer player's move holds (Le Neuf's exchange, where
        every seat acts at once): that move's answer is given now if it waits for its round, or as soon as its
        commit ends.  Paced behind the other tables' computer players, it held the person's move (worst
        acknowledgements of 1.1 to 1.6 s under ``benchmarks/server_load.py``, every one in the exchange)."""
        for item in self._paced:
            if item[0] == table_id:
                self._paced.remove(item)
                _answer(item[1], item[2])
                return
        if len(self._hurried) >= MOST_HURRIED:
            self._hurried.clear()  # a lock held by something other than a move: never answered, forgotten
        self._hurried.add(table_id)

    def _quiet(self) -> None:
        """On the event loop: a commit thread found nothing more to write (unless a move came since, or another
        is still writing)."""
        with self._lock:
            if not self._writing:
                self._idle.set()

    async def close(self) -> None:
        """Wait for the commits under way and those that wait (at shutdown), and give every answer."""
        await self._idle.wait()
        while self._paced:
            _, answer, conflict = self._paced.popleft()
            _answer(answer, conflict)


def writers_for(dialect: str) -> int:
    """Commits a database takes at once with profit.  PostgreSQL: two (a commit waits for its write-ahead log
    to reach the disk, and concurrent commits share the flush; a table's moves never meet in two commits,
    since each holds the table's lock until it is answered).  SQLite: one (a single writer: a second
    would only wait for the database's lock)."""
    return 2 if dialect == "postgresql" else 1


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

