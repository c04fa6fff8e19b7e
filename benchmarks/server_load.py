"""The web server under load: real sockets against real ``nines serve`` processes, on loopback only.

For each configuration (SQLite or PostgreSQL; one server process, or two behind one Redis) it starts
the servers (and a private PostgreSQL cluster and redis-server as needed), then runs for a fixed time:

- ``--tables`` tables of Le Neuf (default 50), each with one person and two computer players (``basic``,
  no pause); the person is played by this script, which moves as soon as it is its turn (a seeded random
  legal move) and times each move from sending it to its acknowledgement; a finished match is followed
  by a new one;
- ``--spectators`` sockets (default 300) watching those tables, spread evenly, reading everything.

With two processes, each table is created on one of them and its spectators watch it from the other, so
every move crosses Redis.  Every client socket has its own loopback address (127.0.0.x), as separate
people would, so the per-address limits of the server apply to each as they would in use.

It prints, per configuration: moves stored per second (every move: the people's and the computer
players'), acknowledgement time p50 / p99 / worst, and each server process's resident memory (now and
peak), the server's CPU time per move, its garbage collections (from ``/health``: how many of each generation
since start-up, their time and the longest pause) and how many cores the servers and this script kept busy (on a
machine where both share the cores, these say where the time went).  Everything stops by itself after ``--seconds`` (plus start-up); all processes are stopped.

    python benchmarks/server_load.py [--seconds 30] [--databases sqlite,postgresql] [--processes 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
sys.path[:0] = [str(SRC), str(ROOT)]
from tests.services import PostgresCluster, RedisServer, descendants, free_port, postgres_bindir

GAME = "neuf"
SEATS = ("S", "W", "E")


# -- processes: servers, PostgreSQL, Redis ----------------------------------------------------------


def postgres_binaries() -> Path:
    found = postgres_bindir()
    if found is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    return found


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    return found


PROFILED = """
import cProfile, runpy, signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # uvicorn raises the signal again once stopped
sys.argv = ["nines", *sys.argv[1:]]
profile = cProfile.Profile(time.thread_time)  # the event loop's own CPU time, not the wall clock's
try:
    profile.runcall(runpy.run_module, "nines.cli", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.dump_stats({out!r})
"""


class Server:
    """``nines serve`` on a free loopback port."""

    def __init__(self, database_url: str, redis_url: str | None, folder: Path, profile: Path | None = None,
                 options: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        # under cProfile (--profile): the event loop thread's CPU time per function are written when the server stops
        start = ["-c", PROFILED.format(out=str(profile / f"server-{self.port}.prof")), "serve"] if profile else ["-m", "nines.cli", "serve"]
        command = [sys.executable, *start, "--port", str(self.port), "--database-url", database_url,
                   "--bot-delay", "0", "--log-level", "warning",
                   "--no-anchor"]  # no computer players' anchor matches in the background while measuring
        if redis_url:
            command += ["--redis-url", redis_url]
        command += options  # more `nines serve` options (a later --bot-delay replaces the one above)
        env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        self.log = open(folder / f"server-{self.port}.log", "w")  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=folder)
        deadline = time.monotonic() + 120
        try:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited: see {self.log.name}")
                try:
                    httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the server did not answer") from None
                    time.sleep(0.2)
        except BaseException:
            self.close()  # a server that never answered is stopped too (it was left running, and its workers)
            raise

    def memory_mb(self) -> tuple[float, float]:
        """Resident memory now and at its peak (MB, from /proc), with its worker processes (their peaks
        added up: at most what they held together)."""
        values = {"VmRSS": 0.0, "VmHWM": 0.0}
        for pid in [self.process.pid, *descendants(self.process.pid)]:
            with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
                for line in status:
                    key, _, rest = line.partition(":")
                    if key in values:
                        values[key] += int(rest.split()[0]) / 1024
        return values["VmRSS"], values["VmHWM"]

    def cpu_s(self) -> float:
        """CPU time the server has used so far (user + system, seconds, from /proc), with its worker
        processes (the reviews of finished deals are worked out in processes of their own)."""
        return sum(self.cpu_split_s())

    def cpu_split_s(self) -> tuple[float, float, float]:
        """:meth:`cpu_s` in three: the event loop's thread, the server's other threads (the database's,
        computer players in threads), its worker processes (reviews)."""
        tick = os.sysconf("SC_CLK_TCK")
        loop = others = workers = 0
        for pid in [self.process.pid, *descendants(self.process.pid)]:
            with contextlib.suppress(OSError):
                for tid in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                        fields = stat.read().rpartition(")")[2].split()
                    used = int(fields[11]) + int(fields[12])
                    if pid != self.process.pid:
                        workers += used
                    elif int(tid) == pid:
                        loop += used
                    else:
                        others += used
        return loop / tick, others / tick, workers / tick

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


# -- the load ------------------------------------------------------------------------------------


@dataclass
class Slot:
    """One table place: the match being played there now (a new one when it ends)."""

    index: int
    home: int  # the server process the table is created on and its person plays on
    table_id: str | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)  # seconds, in the measured window
    moves: int = 0  # moves stored, seen by the people's sockets, in the measured window
    refusals: int = 0
    matches: int = 0
    bytes_received: int = 0
    measuring: bool = False
    server_cpu_s: float = 0.0  # the server processes' CPU time in the measured window
    server_split_s: tuple[float, float, float] = (0.0, 0.0, 0.0)  # event loop thread, other threads, workers
    client_cpu_s: float = 0.0  # this script's
    seconds: float = 0.0  # the measured window


def address(n: int) -> str:
    """A loopback address of its own for client ``n`` (127.0.1.1 onwards)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


async def play(slot: Slot, servers: list[Server], figures: Figures, stop_at: float) -> None:
    """The person at one table: create it, play every turn as soon as it comes, start another when it ends."""
    server = servers[slot.home]
    rng = random.Random(slot.index)
    me = address(slot.index)
    # no connection kept between matches: it idles through the whole match, and the server closes an idle
    # connection after a few seconds; a new table asked for on it as it closed failed the run (httpx.ReadError)
    transport = httpx.AsyncHTTPTransport(local_address=me, limits=httpx.Limits(max_keepalive_connections=0))
    async with httpx.AsyncClient(transport=transport, timeout=60) as http:
        while time.monotonic() < stop_at:
            seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
            response = await http.post(f"http://127.0.0.1:{server.port}/api/tables",
                                       json={"game": GAME, "seats": seats, "name": f"p{slot.index}", "bot_delay_ms": 0})
            response.raise_for_status()
            created = response.json()
            slot.table_id = created["table"]["id"]
            slot.changed.set()
            slot.changed = asyncio.Event()
            figures.matches += 1
            async with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{slot.table_id}", local_addr=(me, 0),
                               max_size=None, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": created["seat"], "token": created["token"]}))
                state: dict[str, Any] = {}
                acted_at = -1
                sent = 0.0
                # one deadline for the whole match (a timeout per message cost this script a task each)
                with contextlib.suppress(TimeoutError, ConnectionClosed):  # the time is up, or the server closed: a new match
                    async with asyncio.timeout(max(0.1, stop_at - time.monotonic())):
                        while True:
                            text = await ws.recv()
                            figures.bytes_received += len(text)
                            message = json.loads(text)
                            kind = message["type"]
                            if kind == "ack":
                                if figures.measuring:
                                    figures.acks.append(time.monotonic() - sent)
                                continue
                            if kind == "error":
                                figures.refusals += 1
                                acted_at = -1
                                continue
                            seq_before = state.get("seq")
                            if kind == "patch":
                                if state.get("rev") != message["base"]:
                                    await ws.send(json.dumps({"type": "resync"}))
                                    continue
                                state = patched(state, message)
                            elif kind == "state":
                                state = message
                            else:
                                continue
                            if seq_before is not None and figures.measuring:
                                figures.moves += max(0, state["seq"] - seq_before)
                            if state["table"]["status"] == "over":
                                break
                            legal = state["view"]["legal"]
                            if legal and state["seq"] != acted_at:
                                acted_at = state["seq"]
                                sent = time.monotonic()
                                await ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": rng.choice(legal)}))


def patched(state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The state with the patch's changes made in place: what ``delta.apply`` does, without its copies (every
    value here comes fresh from ``json.loads`` and nothing else holds it)."""
    for change in patch["changes"]:
        op, path = change[0], change[1]
        if not path:  # the whole body
            state = {"type": "state", **change[2]}
            continue
        parent: Any = state
        for key in path[:-1]:
            parent = parent[key]
        if op == "s":
            parent[path[-1]] = change[2]
        elif op == "a":
            parent[path[-1]].extend(change[2])
        else:
            del parent[path[-1]]
    state["rev"] = patch["rev"]
    return state


async def drain(ws: Any, figures: Figures) -> None:
    """Read everything a socket is sent, as bytes (a spectator's messages are counted, not parsed)."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            figures.bytes_received += len(await ws.recv(decode=False))


async def watch(n: int, slot: Slot, server: Server, figures: Figures, stop_at: float) -> None:
    """A spectator: watches its table, reading everything; follows the place to its next match."""
    me = address(1000 + n)
    while time.monotonic() < stop_at:
        if slot.table_id is None:
            await slot.changed.wait()
            continue
        table_id, changed = slot.table_id, slot.changed
        try:
            async with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", local_addr=(me, 0),
                               max_size=None, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                # read until the socket closes, the place has a new match, or the time is up
                reading, moved_on = asyncio.create_task(drain(ws, figures)), asyncio.create_task(changed.wait())
                await asyncio.wait({reading, moved_on}, timeout=max(0.0, stop_at - time.monotonic()),
                                   return_when=asyncio.FIRST_COMPLETED)
                for task in (reading, moved_on):
                    task.cancel()
                await asyncio.gather(reading, moved_on, return_exceptions=True)
        except OSError:
            await asyncio.sleep(0.5)


async def drive(servers: list[Server], tables: int, spectators: int, warmup: float, seconds: float) -> Figures:
    figures = Figures()
    stop_at = time.monotonic() + warmup + seconds
    slots = [Slot(i, i % len(servers)) for i in range(tables)]
    tasks = [asyncio.create_task(play(slot, servers, figures, stop_at)) for slot in slots]
    for n in range(spectators):
        slot = slots[n % tables]
        watched = servers[(slot.home + 1) % len(servers)]  # with two processes, the other one
        tasks.append(asyncio.create_task(watch(n, slot, watched, figures, stop_at)))
    await asyncio.sleep(warmup)
    figures.measuring = True
    started, mine = time.monotonic(), time.process_time()
    split = [s.cpu_split_s() for s in servers]
    await asyncio.gather(*tasks, return_exceptions=False)
    figures.seconds = time.monotonic() - started
    used = [tuple(b - a for a, b in zip(before, s.cpu_split_s(), strict=True)) for before, s in zip(split, servers, strict=True)]
    loop, others, workers = (sum(part) for part in zip(*used, strict=True))
    figures.server_split_s = (loop, others, workers)
    figures.server_cpu_s = sum(figures.server_split_s)
    figures.client_cpu_s = time.process_time() - mine
    figures.moves_per_s = figures.moves / max(1e-9, figures.seconds)  # type: ignore[attr-defined]
    return figures


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(database: str, processes: int, args: argparse.Namespace, postgres: PostgresCluster | None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="nines-load-"))
    redis = RedisServer(redis_binary(), folder) if processes > 1 else None
    url = postgres.new_database() if database == "postgresql" and postgres else f"sqlite:///{folder / 'nines.db'}"
    servers: list[Server] = []
    try:
        servers = [Server(url, redis.url if redis else None, folder, args.profile) for _ in range(processes)]
        figures = asyncio.run(drive(servers, args.tables, args.spectators, args.warmup, args.seconds))
        memory = [s.memory_mb() for s in servers]
        health = [httpx.get(f"http://127.0.0.1:{s.port}/health", timeout=30).json() for s in servers]
        collectors = [h.get("collector") for h in health]
        acks_ms = [a * 1000 for a in figures.acks]
        return {
            "database": database, "processes": processes,
            "moves_per_s": figures.moves_per_s,  # type: ignore[attr-defined]
            "acks": len(acks_ms), "p50": statistics.median(acks_ms) if acks_ms else float("nan"),
            "p99": percentile(acks_ms, 0.99), "worst": max(acks_ms, default=float("nan")),
            "rss": [round(now) for now, _ in memory], "peak": [round(peak) for _, peak in memory],
            "refusals": figures.refusals, "matches": figures.matches,
            # CPU the server spends per move stored, and how busy each side kept a core: on a machine
            # where the load generator shares the cores, these say where the time went
            "cpu_ms_per_move": 1000 * figures.server_cpu_s / max(1, figures.moves),
            "split_ms_per_move": [1000 * part / max(1, figures.moves) for part in figures.server_split_s],
            "server_cores": figures.server_cpu_s / max(1e-9, figures.seconds),
            "client_cores": figures.client_cpu_s / max(1e-9, figures.seconds),
            "collectors": collectors,  # each server's garbage collections since it started (/health)
            "direct_frames": [h.get("sockets", {}).get("direct_frames") for h in health],  # written straight (wire.py)
        }
    finally:
        for server in servers:
            server.close()
        if redis:
            redis.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30, help="measured time per configuration")
    parser.add_argument("--warmup", type=float, default=8, help="seconds of load before measuring")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--processes", default="1,2", help="server processes (two share one Redis)")
    parser.add_argument("--profile", type=Path, help="run the servers under cProfile, writing server-PORT.prof here "
                        "(slower: for where the time goes, not for the figures)")
    args = parser.parse_args()
    databases = args.databases.split(",")
    postgres = PostgresCluster(postgres_binaries(), durable=True) if "postgresql" in databases else None
    try:
        print(f"{args.tables} tables (a person and two computer players each), {args.spectators} spectators, "
              f"{args.seconds:.0f} s measured after {args.warmup:.0f} s; {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
        print(f"{'database':10} {'procs':>5} {'moves/s':>8} {'acks':>6} {'p50 ms':>7} {'p99 ms':>7} {'worst ms':>8}"
              f"  {'RSS MB (peak)':>14}  refusals  {'srv CPU ms/move':>15} {'(loop/threads/workers)':>22}  {'cores: srv':>10} {'client':>6}",
              flush=True)
        for database in databases:
            for processes in (int(p) for p in args.processes.split(",")):
                r = run(database, processes, args, postgres)
                memory = " ".join(f"{now}({peak})" for now, peak in zip(r["rss"], r["peak"], strict=True))
                split = "/".join(f"{part:.2f}" for part in r["split_ms_per_move"])
                print(f"{r['database']:10} {r['processes']:>5} {r['moves_per_s']:>8.0f} {r['acks']:>6} {r['p50']:>7.1f}"
                      f" {r['p99']:>7.1f} {r['worst']:>8.1f}  {memory:>14}  {r['refusals']:>8}  {r['cpu_ms_per_move']:>15.2f} {split:>22}"
                      f"  {r['server_cores']:>10.2f} {r['client_cores']:>6.2f}", flush=True)
                for n, collector in enumerate(r["collectors"]):
                    if collector:  # each generation: collections, their time in all and the longest, since start-up
                        gens = ", ".join(f"gen{g}: {c['collections']} in {c['total_ms']:.0f} ms (worst {c['worst_ms']:.0f}, CPU {c['cpu_ms']:.0f})"
                                         for g, c in enumerate(collector["generations"]))
                        print(f"{'':16}server {n + 1} collector: {gens}; {collector['frozen']} objects frozen after the last full "
                              f"collection, {collector.get('reclaims', 0)} reclaims; {r['direct_frames'][n]} frames "
                              "written straight to their connection", flush=True)
    finally:
        if postgres:
            postgres.close()


if __name__ == "__main__":
    main()
