"""``nines serve``: the real command, on a loopback port, with its data folder, health endpoint and JSON logs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nines_serve_starts_answers_health_and_logs_json(tmp_path: Path) -> None:
    port = _free_port()
    nines = Path(sys.executable).with_name("nines")
    command = [str(nines), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--bot-delay", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env={**os.environ, "NINES_DATABASE_URL": ""})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).json()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError(
                        "nines serve did not answer: " + (process.stderr.read() if process.poll() is not None else "")
                    ) from None
                time.sleep(0.1)
        assert health["status"] == "ok" and health["database"] == "ok"
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
