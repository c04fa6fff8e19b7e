"""Tables come and go: does the server's memory stay flat, and do paused tables cost nothing?

Starts one ``nines serve`` process on a fresh SQLite file and, through the HTTP and WebSocket
API only:

1. creates and finishes ``--tables`` computer-only tables (Le Neuf, three computer players,
   no pause between moves, ``--start-score`` points so a match is a deal or two), each watched
   by one spectator socket until the match is over, ``--parallel`` at a time; prints the
   server's resident memory (VmRSS) before, after each ``--report-every`` tables and at the
   end, and how many tables it still holds in memory (``/health``);
2. creates ``--paused`` computer-only tables that nobody watches, waits until they pause (the
   server's watch grace, 30 s by default, plus a margin), and prints the CPU time the server
   process used over ``--idle-s`` seconds (``/proc/<pid>/stat``, user + system).

Usage (the issue's figures): ``python benchmarks/table_churn.py`` (2,000 tables, 50 paused,
60 s).  A quick look: ``python benchmarks/table_churn.py --tables 200 --report-every 100 --idle-s 10``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from nines.server.wire.delta import apply

ROOT = Path(__file__).resolve().parents[1]
SEATS = {"S": {"kind": "bot", "bot": "random"}, "W": {"kind": "bot", "bot": "random"}, "E": {"kind": "bot", "bot": "random"}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


class Server:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        command = [sys.executable, "-m", "nines.cli", "serve", "--port", str(self.port), "--data-dir", str(folder),
                   "--bot-delay", "0", "--tables-per-minute", "1000000", "--sockets-per-address", "1000",
                   "--requests-per-minute", "0", "--requests-at-once", "0",  # every table from this one address
                   "--log-level", "warning", "--log-format", "text",
                   "--no-anchor"]  # no computer players' anchor matches in the background while measuring
        self.log = open(folder / "server.log", "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=folder)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.http}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the server did not start (see {folder / 'server.log'})")
            time.sleep(0.2)

    def health(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.http}/health", timeout=10).json())

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def play_one(server: Server, client: httpx.Client, start_score: int) -> int:
    """Create a computer-only table, watch it to the end of the match; the number of moves."""
    body = {"game": "neuf", "seats": SEATS, "bot_delay_ms": 0, "options": {"start_score": start_score}}
    created = client.post(f"{server.http}/api/tables", json=body, timeout=30)
    created.raise_for_status()
    table_id = created.json()["table"]["id"]
    with connect(f"{server.ws}/ws/tables/{table_id}", open_timeout=30, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello"}))
        state: Any = None
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "state":
                state = message
            elif message["type"] == "patch" and state is not None:
                state = apply(state, message["changes"])
            if state is not None and state["table"]["status"] == "over":
                return int(state["seq"])


def churn(server: Server, count: int, parallel: int, report_every: int, start_score: int) -> None:
    done = 0
    moves = 0
    lock = threading.Lock()
    started = time.perf_counter()
    print(f"resident memory before: {rss_mb(server.process.pid):.1f} MB", flush=True)
    with ThreadPoolExecutor(parallel) as pool, httpx.Client() as client:
        for n in pool.map(lambda _: play_one(server, client, start_score), range(count)):
            with lock:
                done += 1
                moves += n
            if done % report_every == 0:
                took = time.perf_counter() - started
                print(f"after {done:5d} tables: resident memory {rss_mb(server.process.pid):.1f} MB, "
                      f"{server.health()['tables']} tables in memory ({moves} moves, {took:.0f} s, "
                      f"{done / took:.1f} tables/s)", flush=True)
    time.sleep(1.0)  # the last sockets' closing reaches the server
    print(f"at the end: resident memory {rss_mb(server.process.pid):.1f} MB, "
          f"tables in memory: {server.health()['tables']} (all finished, so none should be open)", flush=True)


def paused_cost(server: Server, count: int, idle_s: float, grace_s: float) -> None:
    with httpx.Client() as client:
        for _ in range(count):
            body = {"game": "neuf", "seats": SEATS, "bot_delay_ms": 900}
            client.post(f"{server.http}/api/tables", json=body, timeout=30).raise_for_status()
    print(f"{count} computer-only tables made, nobody watching; waiting {grace_s:.0f} s for them to pause", flush=True)
    time.sleep(grace_s)
    before = cpu_s(server.process.pid)
    time.sleep(idle_s)
    used = cpu_s(server.process.pid) - before
    print(f"{server.health()['tables']} tables in memory, {count} of them paused: the server used "
          f"{used:.2f} s of CPU in {idle_s:.0f} s ({100 * used / idle_s:.2f}% of one core)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--report-every", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--start-score", type=int, default=1, help="points each player starts from (1: a short match)")
    parser.add_argument("--paused", type=int, default=50)
    parser.add_argument("--idle-s", type=float, default=60.0)
    parser.add_argument("--grace-s", type=float, default=40.0, help="wait for the server's watch grace (30 s) to pass")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nines-churn-") as folder:
        server = Server(Path(folder))
        try:
            print(f"one server process (pid {server.process.pid}), SQLite in {folder}; "
                  f"{os.cpu_count()} CPUs on this machine", flush=True)
            churn(server, args.tables, args.parallel, args.report_every, args.start_score)
            paused_cost(server, args.paused, args.idle_s, args.grace_s)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
