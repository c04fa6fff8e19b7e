"""A person's first request of the day's challenge is one transaction on the database (a name, a table and its
seats, an entry), and one table a name a day however many requests for the name come at once; on SQLite and
PostgreSQL."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from starlette.testclient import TestClient

from nines.server.http.seating import name_cookie
from nines.server.store.database import Store, StoredSeat, StoredTable
from nines.server.store.standing import ChallengeEntry, Standing
from nines.server.tables.table import hash_token, utcnow

DAY = dt.date(2026, 12, 7)
KEY = b"challenge-key-for-tests-32-bytes"
WRITES = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def writing_transactions(engine: Engine) -> Iterator[list[list[str]]]:
    """Each transaction committed on ``engine`` meanwhile that wrote something, as the tables it wrote, except the
    move journal's (a computer player's move)."""
    open_: dict[int, list[str]] = {}
    committed: list[list[str]] = []

    def executed(conn: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
        words = statement.split()
        if words and words[0].upper() in WRITES:
            table = words[2] if words[0].upper() in ("INSERT", "DELETE") else words[1]
            open_.setdefault(id(conn), []).append(table.strip('"'))

    def commit(conn: Connection) -> None:
        written = open_.pop(id(conn), [])
        if written and "nines_actions" not in written:
            committed.append(written)

    def rollback(conn: Connection) -> None:
        open_.pop(id(conn), None)

    event.listen(engine, "before_cursor_execute", executed)
    event.listen(engine, "commit", commit)
    event.listen(engine, "rollback", rollback)
    try:
        yield committed
    finally:
        event.remove(engine, "before_cursor_execute", executed)
        event.remove(engine, "commit", commit)
        event.remove(engine, "rollback", rollback)


@pytest.mark.databases
def test_a_first_challenge_request_is_one_transaction_stored_before_its_link(make_client: Callable[..., TestClient]) -> None:
    # the computer players wait an hour before each move: nothing but the requests writes meanwhile
    with make_client(today=lambda: DAY, challenge_key=KEY, challenge_bot="basic", bot_delay_ms=3_600_000) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        standing: Standing = client.app.state.standing  # type: ignore[attr-defined]
        assert client.post("/api/challenge/rummy", json={"name": "first"}).status_code == 200  # the day's secret stored
        assert client.post("/api/people", json={"name": "known"}).status_code == 200
        for name in ("new", "known"):
            with writing_transactions(store.engine) as written:
                answer = client.post("/api/challenge/rummy", json={"name": name})
            assert answer.status_code == 200, answer.text
            assert len(written) == 1, (name, written)
            assert {"nines_tables", "nines_seats", "nines_challenge_entries"} <= set(written[0]), written
            table = answer.json()["table"]["id"]
            entry = standing.entry(str(DAY), "rummy", name)
            assert entry is not None and entry.table_id == table
            stored = store.load_table(table)
            assert stored is not None and [s.person for s in stored.seats if s.kind == "human"] == [name]
        assert store.holds_name("new", hash_token(client.cookies[name_cookie("new")]))  # the browser's that asked
        # the same name again: the same table, a new token and link for its seat, in one transaction too
        with writing_transactions(store.engine) as written:
            again = client.post("/api/challenge/rummy", json={"name": "new"})
        assert again.status_code == 200, again.text
        assert len(written) == 1 and set(written[0]) == {"nines_seats"}, written
        seat = next(s for s in store.seats_of(again.json()["table"]["id"]) if s.kind == "human")
        assert seat.token_hash == hash_token(again.json()["token"])
        assert seat.claim_hash == hash_token(again.json()["url"].split("claim=", 1)[1].split(".", 1)[1])
        # another browser: refused, and nothing written
        other = TestClient(client.app)
        other.portal = client.portal
        with writing_transactions(store.engine) as written:
            assert other.post("/api/challenge/rummy", json={"name": "new"}).status_code == 409
        assert written == []


def _table(name: str, n: int) -> StoredTable:
    return StoredTable(id=f"{name}-table-{n}", game="neuf", preset="challenge", options={}, seed=None, hints=False,
                       bot_delay_ms=0, public=False, invite=f"invite-{name}-{n}", status="playing", winners=[],
                       created_at=utcnow(), secret="a" * 64,
                       seats=[StoredSeat("S", "human", person=name, token_hash=f"token-{n}"), StoredSeat("N", "bot", bot="basic")])


def _all_at_once(requests: int, start: Callable[[int], ChallengeEntry | None]) -> list[ChallengeEntry | None]:
    """``start(n)`` for each n in as many threads, let go together."""
    ready = threading.Barrier(requests, timeout=60)

    def one(n: int) -> ChallengeEntry | None:
        ready.wait()
        return start(n)

    with ThreadPoolExecutor(max_workers=requests) as pool:
        return list(pool.map(one, range(requests)))


@pytest.mark.databases
def test_requests_at_once_for_a_name_store_one_table_and_the_name_is_the_first_browsers(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    standing = Standing(store)
    try:
        day = str(DAY)
        # one browser, its name known, asking several times at once: one table, and every answer is its entry
        assert store.own_name("ann", "ann-secret")
        answers = _all_at_once(6, lambda n: standing.start_entry(ChallengeEntry(day, "neuf", "ann", f"ann-table-{n}", "S"),
                                                                  _table("ann", n), "ann-secret"))
        assert all(a is not None for a in answers)
        tables = {a.table_id for a in answers if a is not None}
        assert len(tables) == 1, answers
        kept = tables.pop()
        assert [n for n in range(6) if store.load_table(f"ann-table-{n}") is not None] == [int(kept.rsplit("-", 1)[1])]
        # a new name asked for by several browsers at once: one of them owns it, with the one table; the others
        # are refused and store nothing
        answers = _all_at_once(6, lambda n: standing.start_entry(ChallengeEntry(day, "neuf", "bo", f"bo-table-{n}", "S"),
                                                                  _table("bo", n), f"browser-{n}"))
        winners = [n for n, a in enumerate(answers) if a is not None]
        assert len(winners) == 1, answers
        won = winners[0]
        assert store.holds_name("bo", f"browser-{won}")
        assert not any(store.holds_name("bo", f"browser-{n}") for n in range(6) if n != won)
        assert [n for n in range(6) if store.load_table(f"bo-table-{n}") is not None] == [won]
        entry = standing.entry(day, "neuf", "bo")
        assert entry is not None and entry.table_id == f"bo-table-{won}"
        # someone else's name: nothing stored
        assert standing.start_entry(ChallengeEntry(day, "rummy", "ann", "ann-table-99", "S"), _table("ann", 99), "not-ann") is None
        assert store.load_table("ann-table-99") is None and standing.entry(day, "rummy", "ann") is None
    finally:
        store.close()
