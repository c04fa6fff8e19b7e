"""``nines serve``: the real command, on a loopback port, with its data folder, health endpoint and JSON logs."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from nines.server.anchoring import ANCHOR_NICENESS
from nines.server.runtime import THRESHOLDS

from ..services import ServerProcess, descendants
from ..waiting import wait_until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nines_serve_starts_answers_health_and_logs_json(tmp_path: Path) -> None:
    port = _free_port()
    nines = Path(sys.executable).with_name("nines")
    command = [str(nines), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--bot-delay", "0", "--no-anchor"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env={**os.environ, "NINES_DATABASE_URL": ""})
    try:
        # a bound on failure only: at load average 14 a fresh interpreter took over 30 s to answer (and with both
        # cores kept busy by stress-ng, the tests' servers did not answer 2 s tries within 90 s)
        deadline = time.monotonic() + 180
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=30).json()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError(
                        "nines serve did not answer: " + (process.stderr.read() if process.poll() is not None else "")
                    ) from None
                time.sleep(0.1)
        assert health["status"] == "ok" and health["database"] == "ok"
        # once started, the server froze its start-up heap and set the collector for serving (runtime.settle)
        assert health["collector"]["frozen"] > 10_000
        assert health["collector"]["thresholds"] == list(THRESHOLDS)
        assert health["anchoring"] == {"target": 0, "lacking": {}, "running": False}  # --no-anchor
        assert (tmp_path / "data" / "nines.db").exists()
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "game": "neuf", "seats": {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}},
        }).json()
        assert created["seat"] == "S"
    finally:
        process.terminate()
        _, err = process.communicate(timeout=15)
    assert f"open http://localhost:{port}/" in err
    events = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    names = {e["event"] for e in events}
    assert {"server.started", "table.created", "server.stopped"} <= names
    created_event = next(e for e in events if e["event"] == "table.created")
    assert created_event["game"] == "neuf" and created_event["level"] == "info"


def test_a_worker_process_importing_the_command_module_does_not_run_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # `python -m nines.cli serve` starts review workers by forkserver, which import the parent's main module again
    # (as __mp_main__): unguarded, each worker ran the command line once more instead of reviewing
    import runpy

    import nines.cli

    ran: list[object] = []
    monkeypatch.setattr(nines.cli, "main", lambda *a, **k: ran.append(a))
    runpy.run_module("nines.cli.__main__", run_name="__mp_main__")
    assert ran == []
    runpy.run_module("nines.cli.__main__", run_name="__main__")
    assert len(ran) == 1


def test_the_review_workers_end_with_the_server(tmp_path: Path) -> None:
    # the reviews of finished deals run in worker processes (started by a forkserver); stopped while they
    # worked, the server once exited first, and its forkserver and workers lived on, idle, for good
    server = ServerProcess(f"sqlite:///{tmp_path / 'nines.db'}", folder=tmp_path)
    try:
        bots = {seat: {"kind": "bot", "bot": "basic"} for seat in ("S", "W", "E")}
        tables = []
        for _ in range(12):
            created = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": bots, "bot_delay_ms": 0,
                                                                     "public": True, "options": {"start_score": 1}})
            created.raise_for_status()
            tables.append(created.json()["table"]["id"])
        deadline = time.monotonic() + 90
        while not (workers := descendants(server.process.pid)):  # the first deal ended: its review began
            assert time.monotonic() < deadline, "no review worker was started"
            time.sleep(0.1)

        def finished() -> int:
            return sum(httpx.get(f"{server.http}/api/tables/{t}", timeout=30).json()["status"] == "over" for t in tables)

        # more deals end: reviews under way and waiting (more finished than the two workers) when the server is
        # stopped; waited for, not a fixed 2 s assumed long enough for them to end
        wait_until(lambda: finished() >= 4, timeout=90, what="four finished matches", every=0.1)
        workers = descendants(server.process.pid)
    finally:
        server.stop()
    # it ended by itself: a server that waited for its reviews under way (niced, on a busy machine: over 20 s)
    # was killed by stop(), and its workers outlived it
    assert server.process.returncode != -signal.SIGKILL, "the server had to be killed: it waited for reviews"
    deadline = time.monotonic() + 20
    while alive := [pid for pid in workers if Path(f"/proc/{pid}").exists() and _not_a_zombie(pid)]:
        assert time.monotonic() < deadline, f"review workers outlived the server: {alive}"
        time.sleep(0.1)


def _not_a_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_a_server_killed_outright_leaves_no_review_or_anchoring_process_behind(tmp_path: Path) -> None:
    # kill -9 (or the kernel out of memory) once left the review workers and their forkserver running for ever
    # (430 MB): each worker held both ends of the pool's queues, so the server's going never reached it.  The
    # process playing the computer players' anchor matches (500 asked for: still playing) ends with it too
    server = ServerProcess(f"sqlite:///{tmp_path / 'nines.db'}", folder=tmp_path, options=["--anchor", "500"])
    try:
        assert httpx.get(f"{server.http}/health", timeout=30).json()["anchoring"]["target"] == 500
        deadline = time.monotonic() + 90
        # the forkserver, the two review workers and the anchoring process, at the lowest priority
        while len(left := descendants(server.process.pid)) < 4 or ANCHOR_NICENESS not in _niceness(left):
            assert time.monotonic() < deadline, f"the review workers and the anchoring did not start: {left}"
            time.sleep(0.1)
        server.process.kill()
        server.process.wait(timeout=30)
        deadline = time.monotonic() + 30
        while alive := [pid for pid in left if _running(pid)]:
            assert time.monotonic() < deadline, f"still running 30 s after the server was killed: {alive}"
            time.sleep(0.1)
    finally:
        server.stop()


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended; its parent has not read it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _niceness(pids: list[int]) -> set[int]:
    found = set()
    for pid in pids:
        with contextlib.suppress(OSError):  # ended meanwhile
            found.add(os.getpriority(os.PRIO_PROCESS, pid))
    return found
