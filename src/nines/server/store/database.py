"""Persistence (SQLAlchemy 2): tables, seats and the action log (people and statistics: :mod:`.people`;
the models: :mod:`.schema`).

Event sourcing: a table is stored as its game, options, seed and seats plus the log
of accepted actions; the state is never stored, it is rebuilt by replaying the log
through the rules.  An action row is committed before the action is acknowledged,
and ``(table_id, seq)`` is unique, so two processes can never both take move ``seq``.

The methods here are synchronous (SQLite file by default, PostgreSQL by URL); the
async server calls them through :func:`asyncio.to_thread`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine, ExceptionContext
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .migrate import upgrade
from .people import PeopleStore
from .schema import ActionRow, SeatRow, TableRow, _now

# -- plain values handed to the rest of the server ----------------------------------


@dataclass(frozen=True)
class StoredSeat:
    seat: str
    kind: str
    bot: str | None = None
    person: str | None = None
    token_hash: str | None = None
    claim_hash: str | None = None


@dataclass(frozen=True)
class StoredAction:
    seq: int
    seat: str
    by: str
    action: str
    stand_in: bool = False


@dataclass
class StoredTable:
    id: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seed: int | None
    hints: bool
    bot_delay_ms: int
    public: bool
    invite: str
    status: str
    winners: list[str]
    created_at: dt.datetime
    seats: list[StoredSeat] = field(default_factory=list)
    actions: list[StoredAction] = field(default_factory=list)
    clock_s: int | None = None
    away_s: int | None = None
    stand_in: str | None = None
    next_table: str | None = None
    updated_at: dt.datetime | None = None
    seq: int = 0
    secret: str | None = None
    """The match secret in hexadecimal (every table but solo practice, whose deals come from ``seed``)."""
    practice: bool = False
    """Solo practice: a chosen seed, no other person at the table, left out of statistics."""
    record: dict[str, Any] | None = None
    """The record of a finished match, stored when it ended (served as is, never replayed per request)."""


class StoreUnavailable(Exception):
    """The database cannot be reached (stopped, restarting, unreachable): nothing was stored; try again later."""


class SeqConflict(Exception):
    """Another writer stored an action with this sequence number first."""


class SeatTaken(Exception):
    """The seat is no longer open."""


class _MovesSQL:
    """The group commit's two statements, written once per size for the database's driver.

    A commit of the journal (:meth:`Store.append_actions`) is one INSERT with a row of VALUES per move and one
    UPDATE of the tables' last moves (a CASE), sent to the driver as they are.  With ``executemany`` (a row a
    step), the driver gave the interpreter lock back at every row, and the commit's thread then waited for
    the event loop to let it go again (up to the switch interval each time): a commit of 14 moves waited 28
    times under ``benchmarks/server_load.py``.  Built by SQLAlchemy's expressions per commit instead, the
    statements cost four times the CPU (each value a bound parameter, the statement compiled per size);
    written here, half that of ``executemany``.
    """

    def __init__(self, engine: Engine) -> None:
        dialect = engine.dialect
        self._mark = "?" if dialect.paramstyle == "qmark" else "%s"
        quote = dialect.identifier_preparer.quote
        columns = ("table_id", "seq", "seat", "by", "action", "stand_in", "created_at")
        self._insert = (f"INSERT INTO {quote(ActionRow.__tablename__)} ({', '.join(quote(c) for c in columns)}) VALUES ")
        self._row = "(" + ", ".join([self._mark] * len(columns)) + ")"
        self._update = f"UPDATE {quote(TableRow.__tablename__)} SET {quote('seq')} = CASE {quote('id')} "
        self._rest = f" END, {quote('updated_at')} = {self._mark} WHERE {quote('id')} IN "
        # the database's own forms of a time and a flag, as SQLAlchemy would bind them
        self._stamp = ActionRow.__table__.c.created_at.type.bind_processor(dialect)
        self._flag = ActionRow.__table__.c.stand_in.type.bind_processor(dialect)
        self.statements = lru_cache(maxsize=64)(self._statements)

    def stamp(self, now: dt.datetime) -> Any:
        return self._stamp(now) if self._stamp else now

    def flag(self, value: bool) -> Any:
        return self._flag(value) if self._flag else value

    def _statements(self, moves: int, tables: int) -> tuple[str, str]:
        """The INSERT of ``moves`` rows (seven values each), and the UPDATE of ``tables`` tables (each table and
        its last move, then the time, then each table again)."""
        inserted = self._insert + ", ".join([self._row] * moves)
        when = " ".join([f"WHEN {self._mark} THEN {self._mark}"] * tables)
        updated = self._update + when + self._rest + "(" + ", ".join([self._mark] * tables) + ")"
        return inserted, updated


class Store(PeopleStore):
    """The database behind the server: the tables and their moves here, people and their statistics in
    :class:`~nines.server.store.people.PeopleStore`."""

    def __init__(self, url: str) -> None:
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]  # psycopg 3, the driver the project installs
        self.url = url
        connect_args: dict[str, Any] = {}
        if url.startswith("sqlite"):
            path = url.removeprefix("sqlite:///")
            if path and path != ":memory:" and not url.startswith("sqlite://:"):
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connect_args["timeout"] = 30
        # a connection the database dropped (a restart, an outage) is noticed and replaced before use; a
        # SQLite file is never dropped, and the ping was a tenth of the database threads' time under load
        ping = not url.startswith("sqlite")
        self.engine: Engine = create_engine(url, connect_args=connect_args, pool_pre_ping=ping)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        event.listen(self.engine, "handle_error", _unavailable)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._moves_sql = _MovesSQL(self.engine)

    def migrate(self) -> None:
        """Bring the schema to the newest migration (safe when several processes start together)."""
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            conn.execute(select(1))
        return True

    # -- tables ------------------------------------------------------------------

    def insert_table(self, table: StoredTable) -> None:
        with self._session.begin() as session:
            self.add_table(session, table)

    def add_table(self, session: Session, table: StoredTable) -> None:
        """Store a new table and its seats in the caller's transaction (flushed: later rows may refer to it)."""
        session.add(TableRow(
            id=table.id, game=table.game, preset=table.preset, options=table.options,
            seed=table.seed if table.seed is not None else 0, secret=table.secret, practice=table.practice,
            hints=table.hints, bot_delay_ms=table.bot_delay_ms, public=table.public, invite=table.invite,
            status=table.status, seq=0, winners=[], created_at=table.created_at, updated_at=table.created_at,
            clock_s=table.clock_s, away_s=table.away_s, stand_in=table.stand_in))
        session.flush()  # the seats refer to it
        session.add_all(SeatRow(table_id=table.id, seat=seat.seat, position=position, kind=seat.kind, bot=seat.bot,
                                person=seat.person, token_hash=seat.token_hash, claim_hash=seat.claim_hash)
                        for position, seat in enumerate(table.seats))

    def load_table(self, table_id: str) -> StoredTable | None:
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.position)
            ).all()
            actions = session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ).all()
            return _table(row, seats, [_action(a) for a in actions])

    def unfinished_table_ids(self, active_since: dt.datetime | None = None) -> list[str]:
        """Tables not over (and, given ``active_since``, moved or joined since then: the others are closed)."""
        with self._session() as session:
            query = select(TableRow.id).where(TableRow.status.not_in(("over", "cancelled")))
            if active_since is not None:
                query = query.where(TableRow.updated_at >= active_since)
            return list(session.scalars(query))

    def listed_tables(self, active_since: dt.datetime | None = None, limit: int = 50) -> list[StoredTable]:
        """Public tables still being played (not closed for idleness), most recently active first,
        with their seats but not their actions (the lobby never replays a match)."""
        with self._session() as session:
            query = select(TableRow).where(TableRow.public.is_(True), TableRow.status.not_in(("over", "cancelled")))
            if active_since is not None:
                query = query.where(TableRow.updated_at >= active_since)
            rows = session.scalars(query.order_by(TableRow.updated_at.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.position)):
                    seats[seat.table_id].append(seat)
            return [_table(r, seats[r.id], []) for r in rows]

    def append_action(
        self,
        table_id: str,
        action: StoredAction,
    ) -> None:
        """Store one accepted action (raises :class:`SeqConflict` if ``seq`` is taken)."""
        try:
            with self._session.begin() as session:
                session.add(
                    ActionRow(table_id=table_id, seq=action.seq, seat=action.seat, by=action.by, action=action.action,
                              stand_in=action.stand_in)
                )
                session.flush()
                session.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(seq=action.seq, updated_at=_now())
                )
        except IntegrityError as error:
            raise SeqConflict(f"move {action.seq} of table {table_id} was already stored") from error

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]:
        """Store accepted actions of many tables in one transaction: one commit, one flush to disk.

        This is the group commit that lets one process keep up with many tables (an SQLite commit
        waits for the disk; fifty commits one after the other wait fifty times).  The answer has one
        entry per action, in order: ``None`` once stored, or the :class:`SeqConflict` that refused
        it.  If any action conflicts, nothing of the joint transaction is kept and each action is
        stored on its own, so one table's conflict never loses another table's move.
        """
        if not batch:
            return []
        stamp = self._moves_sql.stamp(_now())
        rows: list[Any] = []
        moved: dict[str, int] = {}
        for table_id, a in batch:
            rows += (table_id, a.seq, a.seat, a.by, a.action, self._moves_sql.flag(a.stand_in), stamp)
            moved[table_id] = max(a.seq, moved.get(table_id, 0))
        inserted, updated = self._moves_sql.statements(len(batch), len(moved))
        try:
            # two statements, each with every row in it, not ``executemany``: see :class:`_MovesSQL`
            with self.engine.begin() as connection:
                connection.exec_driver_sql(inserted, tuple(rows))
                connection.exec_driver_sql(updated, (*(x for item in moved.items() for x in item), stamp, *moved))
            return [None] * len(batch)
        except IntegrityError:
            if len(batch) == 1:
                table_id, action = batch[0]
                return [SeqConflict(f"move {action.seq} of table {table_id} was already stored")]
        answers: list[SeqConflict | None] = []
        for table_id, action in batch:
            try:
                self.append_action(table_id, action)
                answers.append(None)
            except SeqConflict as conflict:
                answers.append(conflict)
        return answers

    def mark_over(self, table_id: str, winners: Sequence[str], record: dict[str, Any] | None = None) -> None:
        """The match is over: its winners and (kept to be served as is) its record."""
        with self._session.begin() as session:
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="over", winners=list(winners), record=record, updated_at=_now())
            )

    def finished_record(self, table_id: str) -> dict[str, Any] | None:
        """The record kept when the match ended (``None``: not over, unknown, or over before records were kept)."""
        with self._session() as session:
            return session.scalar(select(TableRow.record).where(TableRow.id == table_id, TableRow.status == "over"))

    def actions_after(self, table_id: str, seq: int) -> list[StoredAction]:
        with self._session() as session:
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.seq > seq)
                .order_by(ActionRow.seq)
            ).all()
            return [_action(a) for a in rows]

    def take_seat(self, table_id: str, seat: str, token_hash: str, person: str | None) -> None:
        """Give an open seat to a person; raises :class:`SeatTaken` if it was not open."""
        with self._session.begin() as session:
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
                .values(kind="human", token_hash=token_hash, person=person)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise SeatTaken(f"seat {seat} is not open")
            session.execute(update(TableRow).where(TableRow.id == table_id).values(updated_at=_now()))

    def cancel_table(self, table_id: str) -> bool:
        """A table cancelled before anyone else joined: kept, never rebuilt or listed (False if it is over)."""
        with self._session.begin() as session:
            result = session.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status.not_in(("over", "cancelled")))
                                     .values(status="cancelled", updated_at=_now()))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def free_kept_seat(self, table_id: str, seat: str) -> None:
        """An open seat kept for a person (play again) is anyone's: they declined."""
        with self._session.begin() as session:
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
                            .values(person=None))

    def set_claim(self, table_id: str, seat: str, claim_hash: str) -> None:
        """Give a held seat a new one-time claim (the previous one, if unused, no longer works)."""
        with self._session.begin() as session:
            session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(claim_hash=claim_hash)
            )

    def renew_seat(self, table_id: str, seat: str, token_hash: str, claim_hash: str) -> None:
        """A held seat's new token and new one-time claim, in one write (the old ones no longer work)."""
        with self._session.begin() as session:
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                            .values(token_hash=token_hash, claim_hash=claim_hash))

    def use_claim(self, table_id: str, seat: str, claim_hash: str, token_hash: str) -> bool:
        """Spend a one-time claim: the seat gets a new secret (the old holder's no longer works).
        False if the claim was already used or replaced (only one of two browsers racing wins)."""
        with self._session.begin() as session:
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.claim_hash == claim_hash)
                .values(claim_hash=None, token_hash=token_hash)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def set_next_table(self, table_id: str, next_table: str) -> bool:
        """Play again: link a finished table to its successor (False if another was linked first)."""
        with self._session.begin() as session:
            result = session.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.next_table.is_(None)).values(next_table=next_table)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def next_table_of(self, table_id: str) -> str | None:
        with self._session() as session:
            return session.scalar(select(TableRow.next_table).where(TableRow.id == table_id))

    def touch_table(self, table_id: str) -> None:
        """Someone opened the table again: it is active (in the lobby, not closed for idleness)."""
        with self._session.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(updated_at=_now()))

    def seats_of(self, table_id: str) -> list[StoredSeat]:
        with self._session() as session:
            rows = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.position)
            ).all()
            return [_seat(s) for s in rows]

    def set_public(self, table_id: str, public: bool) -> None:
        with self._session.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(public=public))

    def set_pace(self, table_id: str, delay_ms: int) -> None:
        with self._session.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(bot_delay_ms=delay_ms))


def _seat(row: SeatRow) -> StoredSeat:
    return StoredSeat(row.seat, row.kind, row.bot, row.person, row.token_hash, row.claim_hash)


def _action(row: ActionRow) -> StoredAction:
    return StoredAction(row.seq, row.seat, row.by, row.action, bool(row.stand_in))


def _table(row: TableRow, seats: Sequence[SeatRow], actions: list[StoredAction]) -> StoredTable:
    return StoredTable(
        id=row.id,
        game=row.game,
        preset=row.preset,
        options=dict(row.options),
        seed=row.seed if row.secret is None else None,
        secret=row.secret,
        practice=bool(row.practice),
        record=row.record,
        hints=row.hints,
        bot_delay_ms=row.bot_delay_ms,
        public=row.public,
        invite=row.invite,
        status=row.status,
        winners=list(row.winners or []),
        created_at=row.created_at,
        seats=[_seat(s) for s in seats],
        actions=actions,
        clock_s=row.clock_s,
        away_s=row.away_s,
        stand_in=row.stand_in,
        next_table=row.next_table,
        updated_at=row.updated_at,
        seq=row.seq or 0,
    )


def _unavailable(context: ExceptionContext) -> BaseException | None:
    """A database that cannot be reached raises :class:`StoreUnavailable`, a refusal callers can name;
    other errors (a broken rule of the schema, a bug) stay what they are."""
    if context.is_pre_ping:
        return None  # the pool replaces the dropped connection itself
    error = context.sqlalchemy_exception
    if isinstance(error, OperationalError | InterfaceError) or context.is_disconnect:
        return StoreUnavailable(f"the database cannot be reached: {type(context.original_exception).__name__}")
    return None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

