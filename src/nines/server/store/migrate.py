"""The server's schema, kept by Alembic migrations (``nines/server/store/migrations``).

:func:`upgrade` brings a database to the newest revision and is what every server
process runs on start-up.  Several processes may start together on an empty database,
so the upgrade runs under a lock that holds across processes: a PostgreSQL advisory
lock, or for SQLite a lock file next to the database file.  The first process creates
the schema; the others wait, then find nothing left to do.

A database made before migrations existed (``Base.metadata.create_all``: the tables are
there, ``alembic_version`` is not) is stamped as the baseline revision, which is exactly
that schema, and then upgraded like any other.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from filelock import FileLock
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).with_name("migrations")
BASELINE = "0001"
"""The revision equal to the schema the server made with ``create_all`` before migrations."""

ADVISORY_LOCK_KEY = 0x6E696E6573  # "nines": one key for every Nines process on a PostgreSQL database
_in_process = threading.Lock()


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged migrations (no ini file needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision (there must be exactly one: two heads mean two migrations to reconcile)."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The revision a database is at (``None``: empty, or made before migrations)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision, safely when several processes do it at once."""
    with _migration_lock(engine) as connection:
        if _made_before_migrations(connection):
            command.stamp(alembic_config(connection), BASELINE)
            connection.commit()
        command.upgrade(alembic_config(connection), "head")
        connection.commit()


def _made_before_migrations(connection: Connection) -> bool:
    names = set(inspect(connection).get_table_names())
    connection.commit()  # inspecting began a transaction; alembic begins its own
    if "nines_tables" not in names:
        return False
    if "alembic_version" not in names:
        return True
    return MigrationContext.configure(connection).get_current_revision() is None


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """A connection held while no other process (or thread) migrates the same database."""
    with _in_process, engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK_KEY})
            connection.commit()
            try:
                yield connection
            finally:
                connection.rollback()
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK_KEY})
                connection.commit()
        elif engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            with FileLock(f"{engine.url.database}.migrating.lock", timeout=120):
                yield connection
        else:
            yield connection
