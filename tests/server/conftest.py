"""Fixtures: the real app on a fresh database (a SQLite file; PostgreSQL too for tests marked ``databases``),
driven through Starlette's test client, and private redis-server and PostgreSQL processes."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Starlette prefers the httpx2 fork but works with httpx, the dependency the project lists.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`", category=Warning)
from starlette.testclient import TestClient  # noqa: E402

from nines.server import ServerConfig, create_app  # noqa: E402
from nines.server.guard.limits import Limits  # noqa: E402

from ..services import PostgresCluster, RedisServer, postgres_bindir  # noqa: E402

DATABASES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked ``databases`` run once on SQLite and once on PostgreSQL (the rest on SQLite)."""
    if "database_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("databases"):
        metafunc.parametrize("database_url", DATABASES, indirect=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One private PostgreSQL cluster per test process (``make test`` installs Debian's postgresql)."""
    bindir = postgres_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    cluster = PostgresCluster(bindir)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database: a SQLite file, or a new database in the session's PostgreSQL cluster."""
    if getattr(request, "param", "sqlite") == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
        return cluster.new_database()
    return f"sqlite:///{tmp_path / 'nines.db'}"


@pytest.fixture
def make_client(database_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start an app (``with make_client() as client``); several may share the database, one after another."""
    opened: list[TestClient] = []

    def make(**overrides: object) -> TestClient:
        # a test drives a seat faster than any person could (a rummy turn is a draw and a discard sent at once
        # while computer players answer without a pause), so the message rate is not what these tests measure:
        # tests/server/test_limits.py sets its own limits.  Nor is the API request rate: a test polls a table's state
        # every 20 ms while computer players move (tests.server.helpers.wait_for), far more than a person's page asks
        overrides.setdefault("limits", Limits(messages_per_second=1000, messages_per_address=0, requests_per_minute=0))
        config = ServerConfig(**{"database_url": database_url, "bot_delay_ms": 0, "log_json": False, "review_processes": False, "thinking_processes": False, **overrides})  # type: ignore[arg-type]
        client = TestClient(create_app(config))
        opened.append(client)
        return client

    yield make


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client() as c:
        yield c


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A private redis-server on a free loopback port (``make test`` installs it)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (make test installs it)")
    server = RedisServer(binary, tmp_path)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url
