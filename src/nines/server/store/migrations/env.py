"""Alembic's entry point for the server's schema (see docs/migrations.md).

The server runs it through :func:`nines.server.store.migrate.upgrade`, which hands over an open
connection (``config.attributes["connection"]``) held under a lock.  From a checkout,
``alembic`` (with the ``alembic.ini`` at the project root) connects to ``NINES_DATABASE_URL``
or the default SQLite file, e.g. to write a new revision with ``--autogenerate``.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from nines.server.config import default_database_url
from nines.server.store.schema import Base

config = context.config


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        compare_type=True,
        # SQLite alters few things in place: batch operations copy the table instead
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("NINES_DATABASE_URL") or default_database_url()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            run(connection)
    finally:
        engine.dispose()
