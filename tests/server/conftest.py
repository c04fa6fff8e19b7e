"""Fixtures: the real app on a fresh SQLite file, driven through Starlette's test client."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Starlette prefers the httpx2 fork but works with httpx, the dependency the project lists.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`", category=Warning)
from starlette.testclient import TestClient

from nines.server import ServerConfig, create_app


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'nines.db'}"


@pytest.fixture
def make_client(database_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start an app (``with make_client() as client``); several may share the database, one after another."""
    opened: list[TestClient] = []

    def make(**overrides: object) -> TestClient:
        config = ServerConfig(**{"database_url": database_url, "bot_delay_ms": 0, "log_json": False, **overrides})  # type: ignore[arg-type]
        client = TestClient(create_app(config))
        opened.append(client)
        return client

    yield make


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client() as c:
        yield c


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A private redis-server on a free loopback port (CI installs it; skipped only where it is missing)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
