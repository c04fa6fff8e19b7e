"""Persistence (SQLAlchemy 2): tables, seats, the action log, people and their statistics.

Event sourcing: a table is stored as its game, options, seed and seats plus the log
of accepted actions; the state is never stored, it is rebuilt by replaying the log
through the rules.  An action row is committed before the action is acknowledged,
and ``(table_id, seq)`` is unique, so two processes can never both take move ``seq``.

The methods here are synchronous (SQLite file by default, PostgreSQL by URL); the
async server calls them through :func:`asyncio.to_thread`.
"""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    case,
    create_engine,
    delete,
    event,
    false,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine, ExceptionContext
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from ..guard.limits import name_key
from .migrate import upgrade


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "nines_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    preset: Mapped[str | None] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # a table is dealt from its secret when it has one (0 is stored here then), else from this seed
    # (solo practice, and tables stored before secrets existed)
    seed: Mapped[int] = mapped_column(Integer)
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the match secret (hex) of every other table
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    hints: Mapped[bool] = mapped_column(Boolean)
    bot_delay_ms: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    invite: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10), default="playing", index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    winners: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    clock_s: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds a person has per decision
    away_s: Mapped[int | None] = mapped_column(Integer, nullable=True)  # absence before a stand-in plays
    stand_in: Mapped[str | None] = mapped_column(String(40), nullable=True)  # the stand-in's strength
    next_table: Mapped[str | None] = mapped_column(String(32), nullable=True)  # play again: the new table
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # kept once the match is over


class SeatRow(Base):
    __tablename__ = "nines_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("nines_tables.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # human, bot, open
    bot: Mapped[str | None] = mapped_column(String(40))
    person: Mapped[str | None] = mapped_column(String(40), index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64))
    claim_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a one-time claim of this seat


class ActionRow(Base):
    __tablename__ = "nines_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("nines_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first action
    seat: Mapped[str] = mapped_column(String(4))  # the seat that acted (a dummy, say)
    by: Mapped[str] = mapped_column(String(4))  # the seat whose player decided
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # decided by a stand-in for the person


class PersonRow(Base):
    __tablename__ = "nines_people"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the browser that owns the name
    # the name's normalized form (limits.name_key): "Alice" and fullwidth "Alice" cannot both be owned
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)


class NameDeviceRow(Base):
    """Another browser that holds a name (besides the first, ``PersonRow.secret_hash``): taken there with a
    one-time code, or signed in with a passkey.  Each has its own secret; only its hash is kept."""

    __tablename__ = "nines_name_devices"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    how: Mapped[str] = mapped_column(String(10))  # "code" or "passkey"
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


DEVICES_PER_NAME = 20
"""Other browsers one name may be held by at once; taking it to one more lets the oldest go."""


class DealStatRow(Base):
    """One person's result in one finished deal (derived from the log, kept for the statistics page)."""

    __tablename__ = "nines_deal_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    won: Mapped[bool] = mapped_column(Boolean)
    tricks: Mapped[int | None] = mapped_column(Integer)
    target: Mapped[int | None] = mapped_column(Integer)
    exchanged: Mapped[bool | None] = mapped_column(Boolean)
    declared: Mapped[bool | None] = mapped_column(Boolean)
    points: Mapped[int | None] = mapped_column(Integer)
    stand_in: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # decisions a stand-in made for the person


class ReviewStatRow(Base):
    """One person's cards in one reviewed deal: how many they chose, how many cost tricks, the tricks lost."""

    __tablename__ = "nines_review_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    cards: Mapped[int] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    unscored: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class MatchStatRow(Base):
    __tablename__ = "nines_match_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    won: Mapped[bool] = mapped_column(Boolean)


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


@dataclass(frozen=True)
class DealStat:
    table_id: str
    deal: int
    seat: str
    person: str
    game: str
    won: bool
    tricks: int | None = None
    target: int | None = None
    exchanged: bool | None = None
    declared: bool | None = None
    points: int | None = None
    stand_in: int = 0


@dataclass(frozen=True)
class ReviewStat:
    """A person's cards in a reviewed deal (:mod:`nines.review`): chosen, costly, tricks lost, unscored."""

    table_id: str
    deal: int
    seat: str
    person: str
    game: str
    cards: int
    errors: int
    lost: int
    unscored: int = 0


@dataclass(frozen=True)
class MatchStat:
    table_id: str
    seat: str
    person: str
    game: str
    won: bool


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


class Store:
    """The database behind the server."""

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
            session.add(
                TableRow(
                    id=table.id,
                    game=table.game,
                    preset=table.preset,
                    options=table.options,
                    seed=table.seed if table.seed is not None else 0,
                    secret=table.secret,
                    practice=table.practice,
                    hints=table.hints,
                    bot_delay_ms=table.bot_delay_ms,
                    public=table.public,
                    invite=table.invite,
                    status=table.status,
                    seq=0,
                    winners=[],
                    created_at=table.created_at,
                    updated_at=table.created_at,
                    clock_s=table.clock_s,
                    away_s=table.away_s,
                    stand_in=table.stand_in,
                )
            )
            session.flush()
            for position, seat in enumerate(table.seats):
                session.add(
                    SeatRow(
                        table_id=table.id,
                        seat=seat.seat,
                        position=position,
                        kind=seat.kind,
                        bot=seat.bot,
                        person=seat.person,
                        token_hash=seat.token_hash,
                        claim_hash=seat.claim_hash,
                    )
                )

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
            query = select(TableRow.id).where(TableRow.status != "over")
            if active_since is not None:
                query = query.where(TableRow.updated_at >= active_since)
            return list(session.scalars(query))

    def listed_tables(self, active_since: dt.datetime | None = None, limit: int = 50) -> list[StoredTable]:
        """Public tables still being played (not closed for idleness), most recently active first,
        with their seats but not their actions (the lobby never replays a match)."""
        with self._session() as session:
            query = select(TableRow).where(TableRow.public.is_(True), TableRow.status != "over")
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

    def set_claim(self, table_id: str, seat: str, claim_hash: str) -> None:
        """Give a held seat a new one-time claim (the previous one, if unused, no longer works)."""
        with self._session.begin() as session:
            session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(claim_hash=claim_hash)
            )

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

    # -- people and statistics ---------------------------------------------------

    def touch_person(self, name: str) -> None:
        """Remember a name (or that it was seen again); two requests at once for a new name are fine."""
        with self._session.begin() as session:
            updated = session.execute(update(PersonRow).where(PersonRow.name == name).values(last_seen=_now()))
            if updated.rowcount:  # type: ignore[attr-defined]
                return
        try:
            with self._session.begin() as session:
                session.add(PersonRow(name=name, name_key=name_key(name)))
        except IntegrityError:
            pass  # someone else stored it (or a name that normalizes the same) a moment ago

    def own_name(self, name: str, secret_hash: str | None, new_name: Callable[[], None] | None = None) -> bool:
        """May the browser holding this secret use the name?  The first browser to use a name owns it
        (its secret is stored); after that only that browser may.  Returns False for anyone else.
        ``new_name`` is called just before a name new to the database is added, and may refuse it by raising
        (nothing is stored then): the server counts new names per address."""
        with self._session.begin() as session:
            row = session.get(PersonRow, name)
            if row is None:
                if secret_hash is None:
                    return False
                key = name_key(name)
                if session.scalar(select(PersonRow.name).where(PersonRow.name_key == key)) is not None:
                    return False  # a name that normalizes the same ("alice" for "Alice") is someone else's
                if new_name is not None:
                    new_name()
                session.add(PersonRow(name=name, secret_hash=secret_hash, name_key=key))
                try:
                    session.flush()
                except IntegrityError:
                    return False  # another browser took it at the same moment
                return True
            if row.secret_hash is None:  # a name from before names were owned: the first to come back owns it
                if secret_hash is None:
                    return False
                row.secret_hash = secret_hash
                return True
            return _holds(session, row, secret_hash)

    def holds_name(self, name: str, secret_hash: str | None) -> bool:
        """Does the browser holding this secret hold the name (the first browser, or one it was taken to)?"""
        if secret_hash is None:
            return False
        with self._session() as session:
            row = session.get(PersonRow, name)
            return row is not None and row.secret_hash is not None and _holds(session, row, secret_hash)

    def add_device(self, session: Any, name: str, secret_hash: str, how: str, now: dt.datetime) -> None:
        """One more browser holds ``name`` (in the caller's transaction); past :data:`DEVICES_PER_NAME`, the
        oldest other browser lets it go (the first browser never does)."""
        session.add(NameDeviceRow(secret_hash=secret_hash, name=name, how=how, created_at=now))
        session.flush()
        newest_first = session.scalars(select(NameDeviceRow.secret_hash).where(NameDeviceRow.name == name).order_by(
            NameDeviceRow.created_at.desc(), NameDeviceRow.secret_hash)).all()
        old = list(newest_first[DEVICES_PER_NAME:])
        if old:
            session.execute(delete(NameDeviceRow).where(NameDeviceRow.secret_hash.in_(old)))

    def person_exists(self, name: str) -> bool:
        with self._session() as session:
            return session.get(PersonRow, name) is not None

    def add_deal_stats(self, stats: Iterable[DealStat]) -> int:
        """Store deal results not stored yet (derived data: storing twice is harmless)."""
        added = 0
        with self._session.begin() as session:
            for s in stats:
                if session.get(DealStatRow, (s.table_id, s.deal, s.seat)) is not None:
                    continue
                session.add(DealStatRow(**s.__dict__))
                added += 1
        return added

    def add_match_stats(self, stats: Iterable[MatchStat]) -> int:
        added = 0
        with self._session.begin() as session:
            for s in stats:
                if session.get(MatchStatRow, (s.table_id, s.seat)) is not None:
                    continue
                session.add(MatchStatRow(**s.__dict__))
                added += 1
        return added

    def person_stats(self, name: str) -> dict[str, dict[str, Any]]:
        """Per game: matches and deals played and won, tricks against target, exchange and declare rates."""
        out: dict[str, dict[str, Any]] = {}
        with self._session() as session:
            deal_rows = session.execute(
                select(
                    DealStatRow.game,
                    func.count(),
                    func.sum(_as_int(DealStatRow.won)),
                    func.avg(DealStatRow.tricks),
                    func.avg(DealStatRow.target),
                    func.avg(DealStatRow.tricks - DealStatRow.target),
                    func.count(DealStatRow.exchanged),
                    func.sum(_as_int(DealStatRow.exchanged)),
                    func.count(DealStatRow.declared),
                    func.sum(_as_int(DealStatRow.declared)),
                    func.avg(DealStatRow.points),
                )
                # a deal in which a stand-in decided for the person is not their play: counted apart below
                .where(DealStatRow.person == name, DealStatRow.stand_in == 0)
                .group_by(DealStatRow.game)
            ).all()
            for game, n, won, tricks, target, margin, n_ex, ex, n_decl, decl, points in deal_rows:
                out[game] = {
                    "deals": int(n),
                    "deals_won": int(won or 0),
                    "average_tricks": _round(tricks),
                    "average_target": _round(target),
                    "average_margin": _round(margin),
                    "exchange_rate": _rate(ex, n_ex),
                    "declare_rate": _rate(decl, n_decl),
                    "average_points": _round(points),
                    "matches": 0,
                    "matches_won": 0,
                    "deals_stood_in": 0,
                    "stand_in_decisions": 0,
                }
            stood_in = session.execute(
                select(DealStatRow.game, func.count(), func.sum(DealStatRow.stand_in))
                .where(DealStatRow.person == name, DealStatRow.stand_in > 0)
                .group_by(DealStatRow.game)
            ).all()
            for game, n, decisions in stood_in:
                entry = out.setdefault(game, _empty_stats())
                entry["deals_stood_in"] = int(n)
                entry["stand_in_decisions"] = int(decisions or 0)
            match_rows = session.execute(
                select(MatchStatRow.game, func.count(), func.sum(_as_int(MatchStatRow.won)))
                .where(MatchStatRow.person == name)
                .group_by(MatchStatRow.game)
            ).all()
            for game, n, won in match_rows:
                entry = out.setdefault(game, _empty_stats())
                entry["matches"] = int(n)
                entry["matches_won"] = int(won or 0)
        # the review (nines.review): tricks lost per deal to costly cards, over time
        reviewed = self.person_review_stats(name)
        for game, entry in out.items():
            entry["review"] = reviewed.get(game)
        return out

    def add_review_stats(self, stats: Iterable[ReviewStat]) -> int:
        """Store reviewed deals not stored yet (derived data: storing twice is harmless)."""
        added = 0
        with self._session.begin() as session:
            for stat in stats:
                if session.get(ReviewStatRow, (stat.table_id, stat.deal, stat.seat)) is None:
                    session.add(ReviewStatRow(**stat.__dict__))
                    added += 1
        return added

    def person_review_stats(self, name: str, days: int = 30) -> dict[str, dict[str, Any]]:
        """Per game: reviewed deals, average tricks lost per deal to costly cards, and the same day by day
        (the last ``days`` days with a reviewed deal, oldest first)."""
        out: dict[str, dict[str, Any]] = {}
        with self._session() as session:
            rows = session.execute(
                select(ReviewStatRow.game, ReviewStatRow.reviewed_at, ReviewStatRow.lost, ReviewStatRow.errors, ReviewStatRow.cards)
                .where(ReviewStatRow.person == name)
                .order_by(ReviewStatRow.reviewed_at)
            ).all()
        for game, when, lost, errors, cards in rows:
            entry = out.setdefault(game, {"deals": 0, "lost": 0, "errors": 0, "cards": 0, "days": {}})
            entry["deals"] += 1
            entry["lost"] += lost
            entry["errors"] += errors
            entry["cards"] += cards
            day = entry["days"].setdefault(when.date().isoformat(), [0, 0])
            day[0] += 1
            day[1] += lost
        return {
            game: {
                "deals": e["deals"],
                "average_lost": _round(e["lost"] / e["deals"]),
                "costly_cards_per_deal": _round(e["errors"] / e["deals"]),
                "by_day": [
                    {"day": day, "deals": n, "average_lost": _round(lost / n)} for day, (n, lost) in list(e["days"].items())[-days:]
                ],
            }
            for game, e in out.items()
        }

    def people(self, limit: int = 100) -> list[str]:
        with self._session() as session:
            return list(session.scalars(select(PersonRow.name).order_by(PersonRow.last_seen.desc()).limit(limit)))


def _empty_stats() -> dict[str, Any]:
    return {"deals": 0, "deals_won": 0, "average_tricks": None, "average_target": None,
            "average_margin": None, "exchange_rate": None, "declare_rate": None, "average_points": None,
            "matches": 0, "matches_won": 0, "deals_stood_in": 0, "stand_in_decisions": 0}


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


def _as_int(column: Any) -> Any:
    return case((column.is_(True), 1), else_=0)


def _round(value: Any) -> float | None:
    return None if value is None else round(float(value), 2)


def _rate(count: Any, total: Any) -> float | None:
    return None if not total else round(float(count or 0) / float(total), 3)


def _unavailable(context: ExceptionContext) -> BaseException | None:
    """A database that cannot be reached raises :class:`StoreUnavailable`, a refusal callers can name;
    other errors (a broken rule of the schema, a bug) stay what they are."""
    if context.is_pre_ping:
        return None  # the pool replaces the dropped connection itself
    error = context.sqlalchemy_exception
    if isinstance(error, OperationalError | InterfaceError) or context.is_disconnect:
        return StoreUnavailable(f"the database cannot be reached: {type(context.original_exception).__name__}")
    return None


def _holds(session: Any, row: PersonRow, secret_hash: str | None) -> bool:
    """The secret is the name's first browser's, or another browser's it was taken to."""
    if secret_hash is None or row.secret_hash is None:
        return False
    if hmac.compare_digest(row.secret_hash, secret_hash):
        return True
    # looked up by its hash (the key): a secret that is not a device's finds nothing
    device = session.get(NameDeviceRow, secret_hash)
    return device is not None and device.name == row.name


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


# the ratings' and the daily challenge's tables, and those that take a name to another browser (codes,
# passkeys), are part of the schema (Base.metadata) wherever the store is
from . import names as _names  # noqa: E402, F401
from . import standing as _standing  # noqa: E402, F401
