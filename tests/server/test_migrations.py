"""The schema is made by Alembic migrations: equal to the models, safe when processes start together,
and a database made before migrations is taken over without losing anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from nines.server.store import migrate
from nines.server.store.database import Store, StoredSeat
from nines.server.store.schema import Base

from ..waiting import wait_until

SRC = Path(migrate.__file__).parents[3]  # src/, above nines/server/store/migrate.py


def _differences(url: str) -> list[object]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata))
    finally:
        engine.dispose()


@pytest.mark.databases
def test_the_migrations_make_exactly_the_schema_the_models_describe(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    assert migrate.current(store.engine) == migrate.head()
    store.close()
    # a model changed without a migration (or the other way round) shows up here
    assert _differences(database_url) == []


def test_the_migrations_form_one_line() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert len(script.get_heads()) == 1, "two migrations share a parent: point the newer one at the other"
    assert [r.revision for r in script.walk_revisions()][-1] == migrate.BASELINE


@pytest.mark.databases
def test_a_database_made_before_migrations_is_stamped_and_keeps_its_tables(database_url: str) -> None:
    # the schema the server made with create_all before migrations: the baseline revision, without Alembic's
    # table (create_all with today's models would also make the tables later migrations add)
    old = create_engine(database_url)
    with old.connect() as connection:
        command.upgrade(migrate.alembic_config(connection), migrate.BASELINE)
        connection.execute(text("DROP TABLE alembic_version"))
        # a table stored then, in the columns of then (today's store writes columns later revisions add)
        connection.execute(text(
            "INSERT INTO nines_tables (id, game, preset, options, seed, hints, bot_delay_ms, public, invite, status, seq,"
            " winners, created_at, updated_at) VALUES ('t1', 'neuf', NULL, '{}', 1, true, 0, false, 'x', 'playing', 0,"
            " '[]', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"))
        connection.execute(text("INSERT INTO nines_seats (table_id, seat, position, kind) VALUES ('t1', 'S', 0, 'open')"))
        connection.commit()
    old.dispose()
    store = Store(database_url)
    store.migrate()
    assert migrate.current(store.engine) == migrate.head()
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.seats == [StoredSeat("S", "open")] and loaded.seed == 1 and loaded.secret is None
    store.migrate()  # running it again changes nothing
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    store.close()
    assert _differences(database_url) == []


STARTER = """
import sys, time
from pathlib import Path
from nines.server.store.database import Store
folder = Path(sys.argv[2])
store = Store(sys.argv[1])
store.ping()  # connected and loaded: the race is in the schema, not in start-up
(folder / f"ready-{sys.argv[3]}").touch()
while not (folder / "go").exists():  # every process is loaded and waiting: they all start at the word
    time.sleep(0.001)
store.migrate()
store.close()
"""


@pytest.mark.databases
def test_several_processes_starting_together_on_an_empty_database_all_come_up(database_url: str, tmp_path: Path) -> None:
    # the finding: two servers started at once on an empty database, one died with "table already exists"
    # (they start together when all four are loaded, not at a time 2 s ahead assumed long enough to load them)
    folder = tmp_path / "starters"
    folder.mkdir()
    processes = [
        subprocess.Popen([sys.executable, "-c", STARTER, database_url, str(folder), str(n)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={"PYTHONPATH": str(SRC)})
        for n in range(4)
    ]
    try:
        wait_until(lambda: len(list(folder.glob("ready-*"))) == 4 or any(p.poll() is not None for p in processes),
                   timeout=120, what="the four processes to load")
    finally:
        (folder / "go").touch()
    failures = []
    for process in processes:
        _, err = process.communicate(timeout=120)
        if process.returncode != 0:
            failures.append(err.strip().splitlines()[-1] if err.strip() else f"exit {process.returncode}")
    assert failures == []
    engine = create_engine(database_url)
    assert migrate.current(engine) == migrate.head()
    assert "nines_actions" in inspect(engine).get_table_names()
    engine.dispose()
