"""Real database and pub/sub servers for the tests: a private PostgreSQL cluster and a private redis-server.

Both run as real processes on free loopback ports, in temporary folders, and can be stopped and started
again (the outage tests do that).  PostgreSQL refuses to run as root: when the tests run as root the
cluster runs as the ``postgres`` user (``runuser``), in a folder it owns.  ``make test`` installs Debian's
``postgresql`` and ``redis-server`` when they are missing.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path


def free_port() -> int:
    """A loopback port free now.  Another process (on a shared machine, another suite's) may take it before the
    server this is for binds it: each server below is started again on another port when its start fails."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT_TRIES = 5
"""Starts of a server on a port found free, at most, when another process took the port first."""


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and theirs, now (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rpartition(")")[2].split()[1])
                children.setdefault(parent, []).append(int(entry))
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing answered on port {port} within {timeout:.0f} s") from None
            time.sleep(0.05)


def postgres_bindir() -> Path | None:
    """Debian's PostgreSQL binaries (the newest installed version), or ``None``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresCluster:
    """A private PostgreSQL cluster: ``initdb`` into a temporary folder, ``pg_ctl`` on a free loopback port."""

    USER = "nines"

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        """``durable``: every commit waits for the disk, as a server would run (the load benchmark);
        otherwise a test cluster that need not outlive the machine, and is faster for it."""
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="nines-pg-"))
        self.data = self.root / "data"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", self.USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.root}'",
            "max_connections": "200",
        }
        if not durable:
            settings.update({
                "fsync": "off",  # a test cluster: nothing here must outlive the machine
                "synchronous_commit": "off",
                "full_page_writes": "off",
                "shared_buffers": "32MB",
            })
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())
        for tries_left in reversed(range(PORT_TRIES)):
            try:
                self.start()
                break
            except subprocess.CalledProcessError:
                if tries_left == 0 or "already in use" not in self._log():
                    raise
            self.port = free_port()  # taken meanwhile by another process: the last setting of the file wins
            with open(self.data / "postgresql.conf", "a") as conf:
                conf.write(f"port = {self.port}\n")

    def _log(self) -> str:
        try:
            return (self.root / "server.log").read_text(errors="replace")
        except OSError:
            return ""

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        """Stop the server (connections are cut; the data stays for :meth:`start`)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database in the cluster; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={self.USER} dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class RedisServer:
    """A private redis-server on a free loopback port; :meth:`kill` and :meth:`start` make an outage."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        for tries_left in reversed(range(PORT_TRIES)):
            self.start()
            if self.process is not None and self.process.poll() is None:
                break
            if tries_left == 0:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            self.port = free_port()  # taken meanwhile by another process (redis-server exits): another one

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # until this redis-server answers on the port, or exits (one that cannot bind, the port taken meanwhile by
        # another process, exits): waited for, not a fixed 0.2 s after the port answered assumed long enough for a
        # server that cannot bind to exit (what answered may be another process on the port)
        deadline = time.monotonic() + 60
        while self.process.poll() is None and not self._answers_as(self.process.pid):
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer on port {self.port} within 60 s")
            time.sleep(0.05)

    def _answers_as(self, pid: int) -> bool:
        """Whether the redis-server answering on the port is the process ``pid`` (its INFO says which)."""
        import redis

        try:
            with redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=5, socket_timeout=30) as client:
                return int(client.info("server")["process_id"]) == pid
        except (redis.RedisError, OSError, KeyError, ValueError):
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def pause(self) -> None:
        """Freeze it (SIGSTOP): it holds its connections and answers nothing, as a hung server does."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def close(self) -> None:
        if self.process is not None:
            self.resume()
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


class ServerProcess:
    """``nines serve`` as its own process on a free loopback port (uvicorn, as people run it)."""

    def __init__(self, database_url: str, redis_url: str | None = None, folder: Path | None = None,
                 bot_delay: float = 0.0, options: Sequence[str] = ()) -> None:
        import sys

        self.folder = folder or Path(tempfile.mkdtemp(prefix="nines-serve-"))
        src = Path(__file__).resolve().parents[1] / "src"
        env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        for tries_left in reversed(range(PORT_TRIES)):
            self.port = free_port()
            command = [sys.executable, "-m", "nines.cli", "serve", "--port", str(self.port), "--database-url", database_url,
                       "--bot-delay", str(bot_delay), "--log-level", "warning"]
            if redis_url:
                command += ["--redis-url", redis_url]
            if "--anchor" not in options:
                command.append("--no-anchor")  # no computer players' matches in the background unless a test asks
            command += options
            self.log = open(self.folder / f"server-{self.port}.log", "w")  # noqa: SIM115 - closed in stop()
            self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=self.folder)
            try:
                self.wait_ready()
                return
            except RuntimeError:
                if tries_left == 0 or "address already in use" not in self.output().lower():
                    raise
                self.log.close()  # the port was taken meanwhile by another process: another one

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 180.0) -> None:
        """Until the server answers /health (a bound on failure only: with both cores of a loaded 2-core machine
        kept busy by stress-ng, five servers were given up after 90 s of 2 s tries; each try now waits 30 s)."""
        import httpx

        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"nines serve exited ({self.process.returncode}): {self.output()[-2000:]}")
            try:
                httpx.get(f"{self.http}/health", timeout=30)
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("nines serve did not answer") from None
                time.sleep(0.1)

    def output(self) -> str:
        self.log.flush()
        return (self.folder / f"server-{self.port}.log").read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()
