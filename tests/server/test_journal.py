"""The move journal: moves of many tables stored in one commit, each with its own answer."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from collections.abc import Sequence

import pytest
from sqlalchemy import event

from nines.server.store.database import SeqConflict, Store, StoredAction, StoredTable
from nines.server.store.journal import BOTS_PER_ROUND, MoveJournal, writers_for

from ..waiting import until


def _table(store: Store, table_id: str) -> None:
    store.insert_table(StoredTable(id=table_id, game="neuf", preset=None, options={}, seed=1, hints=True, bot_delay_ms=0,
                                   public=False, invite="x", status="playing", winners=[], created_at=dt.datetime.now(dt.UTC).replace(tzinfo=None)))


def _move(seq: int, action: str = "keep") -> StoredAction:
    return StoredAction(seq=seq, seat="S", by="S", action=action)


# These tests wait for what they need (a commit begun, moves queued for the next one), never for a fixed time:
# "await asyncio.sleep(0.05): the first commit is under way" assumed the commit thread had started by then.
def _waiting(journal: MoveJournal) -> int:
    """Moves queued for the next commit."""
    return len(journal._waiting)


@pytest.mark.databases
def test_one_commit_stores_the_moves_of_many_tables_and_a_conflict_loses_no_other(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    for name in ("a", "b", "c"):
        _table(store, name)
    assert store.append_actions([("a", _move(1)), ("b", _move(1)), ("c", _move(1))]) == [None, None, None]
    # move 1 of b is taken: b's move is refused, a's and c's second moves are stored all the same
    answers = store.append_actions([("a", _move(2)), ("b", _move(1, "exchange")), ("c", _move(2))])
    assert answers[0] is None and answers[2] is None
    assert isinstance(answers[1], SeqConflict)
    assert [a.seq for a in store.actions_after("a", 0)] == [1, 2]
    assert [(a.seq, a.action) for a in store.actions_after("b", 0)] == [(1, "keep")]
    assert [a.seq for a in store.actions_after("c", 0)] == [1, 2]
    assert {t: store.load_table(t).seq for t in "abc"} == {"a": 2, "b": 1, "c": 2}  # type: ignore[union-attr]
    store.close()


@pytest.mark.databases
def test_a_commit_of_many_moves_is_two_statements_neither_stepped_per_row(database_url: str) -> None:
    """The driver gives the interpreter lock back at each step of a statement, and the commit's thread then
    waits for the event loop to let it go: ``executemany`` steps once per row (a commit of 14 moves waited 28
    times under ``benchmarks/server_load.py``), one statement of many rows once."""
    store = Store(database_url)
    store.migrate()
    tables = [f"t{n}" for n in range(8)]
    for name in tables:
        _table(store, name)
    executed: list[tuple[str, bool]] = []

    def seen(_conn: object, _cursor: object, statement: str, _parameters: object, _context: object, executemany: bool) -> None:
        executed.append((statement.split()[0].upper(), executemany))

    event.listen(store.engine, "before_cursor_execute", seen)
    batch = [(t, _move(seq)) for seq in (1, 2) for t in tables]  # two moves of each table, sixteen in all
    assert store.append_actions(batch) == [None] * len(batch)
    event.remove(store.engine, "before_cursor_execute", seen)
    assert [e for e in executed if e[0] in ("INSERT", "UPDATE")] == [("INSERT", False), ("UPDATE", False)]
    assert {t: store.load_table(t).seq for t in tables} == dict.fromkeys(tables, 2)  # type: ignore[union-attr]
    assert all([a.seq for a in store.actions_after(t, 0)] == [1, 2] for t in tables)
    store.close()


class SlowStore:
    """A store whose commit waits until the test lets it go, counting what each commit held."""

    def __init__(self) -> None:
        self.commits: list[list[tuple[str, int]]] = []
        self.started: list[list[tuple[str, int]]] = []  # what each commit held when it began (the test waits for it)
        self.go = threading.Event()
        self.taken: set[tuple[str, int]] = set()
        self.down = False

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]:
        self.started.append([(t, a.seq) for t, a in batch])
        self.go.wait(timeout=60)
        if self.down:
            raise ConnectionError("the database is not answering")
        self.commits.append([(t, a.seq) for t, a in batch])
        answers: list[SeqConflict | None] = []
        for t, a in batch:
            if (t, a.seq) in self.taken:
                answers.append(SeqConflict(f"move {a.seq} of {t} was already stored"))
            else:
                self.taken.add((t, a.seq))
                answers.append(None)
        return answers


def test_moves_that_arrive_during_a_commit_are_stored_together_in_the_next() -> None:
    async def main() -> SlowStore:
        store = SlowStore()
        journal = MoveJournal(store)
        first = asyncio.create_task(journal.append("t0", _move(1)))
        await until(lambda: store.started, what="the first commit")  # under way (waiting on the disk)
        rest = [asyncio.create_task(journal.append(f"t{n}", _move(1))) for n in range(1, 30)]
        again = asyncio.create_task(journal.append("t0", _move(1)))  # a second writer of t0's move 1
        await until(lambda: _waiting(journal) == 30, what="thirty moves queued")
        store.go.set()
        await first
        await asyncio.gather(*rest)
        with pytest.raises(SeqConflict):
            await again
        assert (journal.commits, journal.moves) == (2, 31)
        return store

    store = asyncio.run(main())
    assert [len(c) for c in store.commits] == [1, 30]  # a lone move at once; the thirty that waited in one commit


def test_an_outage_refuses_every_move_of_the_commit_and_the_next_ones_are_stored() -> None:
    async def main() -> None:
        store = SlowStore()
        store.down = True
        store.go.set()
        journal = MoveJournal(store)
        results = await asyncio.gather(*(journal.append(f"t{n}", _move(1)) for n in range(5)), return_exceptions=True)
        assert all(isinstance(r, ConnectionError) for r in results)
        store.down = False
        await journal.append("t0", _move(1))  # the database is back: stored
        assert store.commits[-1] == [("t0", 1)]

    asyncio.run(main())


def test_a_caller_that_gives_up_does_not_cancel_the_others_commit() -> None:
    async def main() -> None:
        store = SlowStore()
        journal = MoveJournal(store)
        leaving = asyncio.create_task(journal.append("a", _move(1)))
        staying = asyncio.create_task(journal.append("b", _move(1)))
        await until(lambda: store.started and _waiting(journal) + len(store.started[0]) == 2, what="both moves queued")
        leaving.cancel()  # a socket closed while its move was being stored
        store.go.set()
        await staying
        assert store.commits == [[("a", 1), ("b", 1)]] or store.commits == [[("a", 1)], [("b", 1)]]
        assert ("a", 1) in store.taken  # the move was stored all the same, as a database write would be

    asyncio.run(main())


def test_a_persons_move_is_answered_before_the_computer_players_moves_of_its_commit() -> None:
    """People first: the answers wake the moves' tasks in the order given, and each computer player's move
    then does a few milliseconds of work on the event loop; the person's is woken before any of them."""
    async def main() -> tuple[list[str], SlowStore]:
        store = SlowStore()
        journal = MoveJournal(store)
        woken: list[str] = []

        async def move(table: str, person: bool) -> None:
            await journal.append(table, _move(1), first=person)
            woken.append(table)

        under_way = asyncio.create_task(move("t0", False))
        await until(lambda: store.started, what="the first commit")  # a commit is under way; these wait for the next one
        waiting = [asyncio.create_task(move(f"bot{n}", False)) for n in range(5)]
        waiting.append(asyncio.create_task(move("person", True)))
        await until(lambda: _waiting(journal) == 6, what="six moves queued")
        store.go.set()
        await asyncio.gather(under_way, *waiting)
        return woken, store

    woken, store = asyncio.run(main())
    assert store.commits[1][0] == ("person", 1)  # first in the commit, though it came last
    # and answered before the computer players who came before it (and before the one of the commit before
    # too, when that one's answer still waited for its round as this commit ended: commits follow each other
    # without waiting for the loop, so which of the two comes first depends on the commit thread's speed)
    assert woken.index("person") < woken.index("bot0")
    assert [name for name in woken if name != "person"] == ["t0", *(f"bot{n}" for n in range(5))]  # in order


def test_a_commits_computer_players_are_answered_a_handful_a_round_so_a_persons_message_is_read_between() -> None:
    """Each computer player's move woken by its answer works on the event loop (applied, shown, the next one
    decided); a commit's forty answered at once held the loop for a whole round, and a person's message that
    came meanwhile was read only after all of them.  Paced, it is read after a handful."""
    async def main() -> list[str]:
        store = SlowStore()
        journal = MoveJournal(store)
        done: list[str] = []
        loop = asyncio.get_running_loop()

        async def move(table: str) -> None:
            await journal.append(table, _move(1))
            if table == "bot0":  # a person's message arrives now: the loop reads it in its next round
                loop.call_soon(done.append, "person read")
            time.sleep(0.002)  # noqa: ASYNC251 - this move's work on the loop (it holds the loop, as such work does)
            done.append(table)

        under_way = asyncio.create_task(move("t0"))
        await until(lambda: store.started, what="the first commit")  # a commit is under way; these wait for the next one
        bots = [asyncio.create_task(move(f"bot{n}")) for n in range(12)]
        await until(lambda: _waiting(journal) == 12, what="twelve moves queued")
        store.go.set()
        await asyncio.gather(under_way, *bots)
        await journal.close()
        return done

    done = asyncio.run(main())
    assert [name for name in done if name.startswith("bot")] == [f"bot{n}" for n in range(12)]  # in their order
    assert done.index("person read") <= 1 + BOTS_PER_ROUND  # not after all twelve (the old way: 13th)


def test_a_person_waiting_for_a_table_hurries_the_computer_players_move_that_holds_it() -> None:
    """In Le Neuf's exchange every seat acts at once: a person's move waits for the table's lock while a
    computer player's move holds it; paced behind the other tables' computer players, that move's answer
    held the person's (worst acknowledgements of 1.1 to 1.6 s, every one in the exchange)."""
    async def main(hurry_while_paced: bool) -> list[str]:
        store = SlowStore()
        journal = MoveJournal(store)
        woken: list[str] = []
        first_woken = asyncio.Event()

        async def move(table: str) -> None:
            await journal.append(table, _move(1))
            woken.append(table)
            first_woken.set()

        bots = [asyncio.create_task(move(f"bot{n}")) for n in range(12)]
        await until(lambda: store.started, what="the commit")  # one commit of all twelve, under way
        assert len(store.started[0]) == 12
        if not hurry_while_paced:
            journal.hurry("bot9")  # answered as soon as the commit ends
        store.go.set()
        if hurry_while_paced:
            await first_woken.wait()  # the first handful answered, the rest waiting for their rounds
            journal.hurry("bot11")  # answered now, not in its round
        await asyncio.gather(*bots)
        return woken

    assert asyncio.run(main(hurry_while_paced=False))[0] == "bot9"
    woken = asyncio.run(main(hurry_while_paced=True))
    assert woken.index("bot11") < woken.index("bot8")
    assert sorted(woken) == sorted(f"bot{n}" for n in range(12))


def test_the_next_commit_starts_as_soon_as_one_ends_without_waiting_for_the_event_loop() -> None:
    """Under load the event loop is busy with the last commit's moves when the commit under way ends: the
    commit thread starts the next one itself (it waited for the loop's turn: 14 ms commits 39 ms apart)."""
    async def main() -> SlowStore:
        store = SlowStore()
        journal = MoveJournal(store)
        under_way = journal.enqueue("a", _move(1))
        await until(lambda: store.started, what="the first commit")  # under way (waiting on the disk)
        waiting = journal.enqueue("b", _move(1))
        store.go.set()
        # the event loop kept busy on purpose (no await here) until both commits are done: the commit thread
        # must start the second without the loop.  Were it to need the loop, the wait would fail at its
        # deadline: it waits for the commits, not for a time assumed long enough on any machine
        deadline = time.monotonic() + 30
        while len(store.commits) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)  # noqa: ASYNC251 - holds the loop on purpose
        assert store.commits == [[("a", 1)], [("b", 1)]]
        await asyncio.wait_for(asyncio.gather(under_way, waiting), 30)
        await asyncio.wait_for(journal.close(), 30)
        assert (journal.commits, journal.moves) == (2, 2)
        return store

    asyncio.run(main())


class HeldFirstStore:
    """A store whose first commit waits until the test lets it go; every later commit is stored at once."""

    def __init__(self) -> None:
        self.commits: list[list[tuple[str, int]]] = []
        self.started = 0  # commits begun (the test waits for the first)
        self.go = threading.Event()
        self._first = True
        self._lock = threading.Lock()

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]:
        with self._lock:
            first, self._first = self._first, False
            self.started += 1
        if first:
            self.go.wait(timeout=60)
        with self._lock:
            self.commits.append([(t, a.seq) for t, a in batch])
        return [None] * len(batch)


@pytest.mark.parametrize("writers", [1, 2])
def test_where_the_database_takes_two_commits_a_persons_move_does_not_wait_for_the_one_under_way(writers: int) -> None:
    """PostgreSQL: a commit waits for the write-ahead log to reach the disk, and a person's move waited for
    the computer players' commit under way, then its own.  With two writers it starts a commit of its own;
    a computer player's move still waits for the next commit (no commit per move)."""
    async def main() -> tuple[bool, bool, HeldFirstStore]:
        store = HeldFirstStore()
        journal = MoveJournal(store, writers=writers)
        held = asyncio.create_task(journal.append("t0", _move(1)))  # a computer player's commit, under way
        await until(lambda: store.started, what="the first commit")
        bot = asyncio.create_task(journal.append("t1", _move(1)))  # another table's computer player: waits
        person = asyncio.create_task(journal.append("t2", _move(1), first=True))
        if writers == 2:  # the person's commit of its own, with the computer player's move that waited: both done
            await until(lambda: person.done() and bot.done(), what="the person's own commit")
        else:  # both wait for the one writer: no second commit can begin (the two moves are queued, and stay so)
            await until(lambda: _waiting(journal) == 2, what="two moves queued")
            await asyncio.sleep(0.3)  # a negative check: on a slow machine it proves less, it cannot fail for it
            assert store.started == 1
        person_done, bot_done = person.done(), bot.done()
        store.go.set()
        await asyncio.gather(held, bot, person)
        await journal.close()
        return person_done, bot_done, store

    person_done, bot_done, store = asyncio.run(main())
    assert person_done is (writers == 2)
    assert bot_done is (writers == 2)  # (the person's commit took every move that waited, people first)
    if writers == 2:
        assert store.commits == [[("t2", 1), ("t1", 1)], [("t0", 1)]]
    else:
        assert store.commits == [[("t0", 1)], [("t2", 1), ("t1", 1)]]


def test_two_writers_on_postgresql_one_on_sqlite() -> None:
    assert writers_for("postgresql") == 2 and writers_for("sqlite") == 1
