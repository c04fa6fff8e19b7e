"""The daily challenge under load: many people playing the day's challenge at once on one ``nines serve``, then
the day's standings with many finished entries; real HTTP and WebSocket on loopback only (issue 29, "Load").

One server process (SQLite by default, or a private PostgreSQL cluster), started for the run, stopped after it:

1. The day (today, UTC, as the server counts it) is first given ``--standings-entries`` finished entries (default
   10,000), written into the server's database before it starts through the store's own calls, the ones the server
   makes for a person's entry (``Standing.add_entry``, then ``Standing.set_results`` as the challenge finishes):
   the server reads them as it reads real ones.
2. ``--people`` scripted people (default 300) arrive over ``--ramp`` seconds, each from a loopback address of its
   own (127.0.x.y, so the server's per-address bounds apply as they would to separate people).  Each takes a name
   and asks for the day's challenge (``POST /api/challenge/{game}``: the name's cookie, then ``table``, ``seat``,
   ``token``), opens its seat's socket and plays a seeded random legal move as soon as it is its turn, until its
   challenge is over or the time is up.  The other seats are the challenge's own computer players (``expert``), at
   the server's usual pace (``--bot-delay-ms``, by default ``nines serve``'s).  A move is timed from sending it to
   its acknowledgement.
3. Then ``GET /api/challenge/{game}/{day}`` from a client: the first request (cold), requests back to back (the
   server keeps a day's standings as worked out for ``STANDINGS_FRESH_S``, so these are mostly served as kept),
   and requests each after that time has passed (each works the standings out again).

Printed: people, moves a second (every move: the people's and the computer players'), the people's acknowledgement
p50 / p99 / worst, the challenge request's times, the server's CPU a move (event loop / other threads, where the
computer players think / worker processes, where finished deals are reviewed) and the cores it kept busy, its
resident memory, challenges finished; then the standings' times.  The script shares the machine's cores with the
server: its own CPU is printed too.

    python benchmarks/challenge_load.py [--people 300] [--game neuf] [--seconds 60] [--standings-entries 10000]
    python benchmarks/challenge_load.py --people 0 --ramp 0 --seconds 1     # the standings alone

Targets (issue 29): acknowledgement p99 under 150 ms; standings under 50 ms with 10,000 finished entries.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import PostgresCluster, Server, address, patched, percentile, postgres_binaries

from nines.challenge import CHALLENGES
from nines.server.store.database import Store
from nines.server.store.standing import ChallengeEntry, Standing
from nines.server.tables.standings import STANDINGS_FRESH_S

# the pace of computer players `nines serve` uses unless told otherwise (its --bot-delay)
DEFAULT_BOT_DELAY_MS = 900

# results a deal of each game may give the person (higher is better: see nines.challenge.deal_results); the
# standings' work depends on how many entries and deals there are, hardly on the values
RESULTS = {
    "neuf": lambda rng: float(rng.randint(-3, 5)),  # points taken off a score counting down
    "elyigit": lambda rng: float(2 * rng.randint(-10, 10)),  # the side's points less the other side's
    "rummy": lambda rng: -float(rng.choice([0, 0, rng.randint(1, 120)])),  # the penalty avoided
}


# -- the finished entries of the day ----------------------------------------------------------------


def fill_day(database_url: str, day: str, game: str, entries: int, seed: int) -> float:
    """Give the day ``entries`` finished entries, as the server writes a person's (an entry, then its results
    as the challenge finishes); the seconds it took.  Made before the server starts, with the database's waits
    for the disk turned off on this script's own connections only (the server's are untouched)."""
    store = Store(database_url)
    store.migrate()

    def quick(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA synchronous=OFF" if store.url.startswith("sqlite") else "SET synchronous_commit TO OFF")
        cursor.close()
        dbapi_connection.commit()  # PostgreSQL: a setting made in a transaction rolled back would not hold

    event.listen(store.engine, "connect", quick)
    store.engine.dispose()
    standing = Standing(store)
    spec = CHALLENGES[game]
    rng = random.Random(seed)
    started = time.monotonic()
    try:
        for n in range(entries):
            name = f"finished-{n:05d}"
            standing.add_entry(ChallengeEntry(day, game, name, f"filled{n:06d}", spec.seat))
            standing.set_results(day, game, name, [RESULTS[game](rng) for _ in range(spec.deals)], True)
    finally:
        store.close()
    return time.monotonic() - started


# -- the people ---------------------------------------------------------------------------------------


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)  # seconds, the people's moves in the measured window
    acks_at: list[float] = field(default_factory=list)  # when each of those acknowledgements came
    starts: list[float] = field(default_factory=list)  # seconds, each POST /api/challenge/{game}
    moves: int = 0  # moves made at the people's tables in the measured window (seen by their sockets)
    refusals: int = 0
    playing: int = 0  # people whose socket is open now
    people: int = 0
    seated: int = 0  # people whose socket has opened (or who failed before)
    all_seated_at: float | None = None  # when the last person's socket opened
    finished: int = 0  # challenges played to the end
    failed: list[str] = field(default_factory=list)
    measuring: bool = False
    late: list[float] = field(default_factory=list)  # seconds this script's event loop woke late, in the window


async def person(n: int, server: Server, game: str, arrive_at: float, stop_at: float, seed: int, figures: Figures) -> None:
    """One person: a name, the day's challenge, every turn played at once until it is over or the time is up."""
    await asyncio.sleep(max(0.0, arrive_at - time.monotonic()))
    rng = random.Random(seed * 100_003 + n)
    me = address(n)
    seated = False
    try:
        # a name of its own (new: the answer sets its cookie), and the day's challenge table of that name
        # verify=False: plain HTTP on loopback, and a transport's default TLS context loads the CA bundle (76 ms of
        # this script's event loop each: 300 arrivals held it 20 s, delaying every person's moves and answers)
        transport = httpx.AsyncHTTPTransport(local_address=me, verify=False)
        async with httpx.AsyncClient(transport=transport, timeout=120, trust_env=False) as http:
            asked = time.monotonic()
            response = await http.post(f"http://127.0.0.1:{server.port}/api/challenge/{game}", json={"name": f"person-{n:04d}"})
            figures.starts.append(time.monotonic() - asked)
            response.raise_for_status()
            given = response.json()
        async with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{given['table']['id']}", local_addr=(me, 0),
                           max_size=None, open_timeout=120) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": given["seat"], "token": given["token"]}))
            figures.playing += 1
            seated = True
            seat_done(figures)
            try:
                if await play(ws, rng, figures, stop_at):
                    figures.finished += 1
            finally:
                figures.playing -= 1
    except (httpx.HTTPError, OSError, ConnectionClosed) as error:
        figures.failed.append(f"person {n}: {type(error).__name__}: {error}"[:300])
        if not seated:
            seat_done(figures)


def seat_done(figures: Figures) -> None:
    """One more person's socket open (or their start failed): the time the last of them sat down is kept."""
    figures.seated += 1
    if figures.seated == figures.people:
        figures.all_seated_at = time.monotonic()


async def play(ws: Any, rng: random.Random, figures: Figures, stop_at: float) -> bool:
    """Play the seat's turns as they come (a seeded random legal move, sent at once); whether the challenge ended."""
    state: dict[str, Any] = {}
    acted_at = -1
    sent = 0.0
    with contextlib.suppress(TimeoutError):  # the time is up
        async with asyncio.timeout(max(0.1, stop_at - time.monotonic())):
            while True:
                message = json.loads(await ws.recv())
                kind = message["type"]
                if kind == "ack":
                    if figures.measuring:
                        figures.acks.append(time.monotonic() - sent)
                        figures.acks_at.append(time.monotonic())
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
                    return True
                legal = state["view"].get("legal")
                if legal and state["seq"] != acted_at:
                    acted_at = state["seq"]
                    sent = time.monotonic()
                    await ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": rng.choice(legal)}))
    return False


async def watch_loop(figures: Figures, stop_at: float, every_s: float = 0.05) -> None:
    """How late this script's own event loop wakes: a late loop would make the server's answers look late."""
    while time.monotonic() < stop_at:
        asked = time.monotonic()
        await asyncio.sleep(every_s)
        if figures.measuring:
            figures.late.append(time.monotonic() - asked - every_s)


@dataclass
class Load:
    figures: Figures
    seconds: float  # the measured window
    server_split_s: tuple[float, float, float]  # the server's CPU in it: event loop, other threads, workers
    client_cpu_s: float
    playing_at_start: int
    opened: float  # when the measured window began (time.monotonic)
    memory_mb: tuple[float, float]
    health: dict[str, Any]


async def drive(server: Server, args: argparse.Namespace) -> Load:
    figures = Figures(people=args.people)
    started = time.monotonic()
    window_at = started + args.ramp
    stop_at = window_at + args.seconds
    tasks = [asyncio.create_task(person(n, server, args.game, started + args.ramp * n / max(1, args.people), stop_at,
                                        args.seed, figures)) for n in range(args.people)]
    tasks.append(asyncio.create_task(watch_loop(figures, stop_at)))
    await asyncio.sleep(max(0.0, window_at - time.monotonic()))
    figures.measuring = True
    playing_at_start = figures.playing
    before, mine, opened = server.cpu_split_s(), time.process_time(), time.monotonic()
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    figures.measuring = False
    seconds = time.monotonic() - opened
    after = server.cpu_split_s()
    split = (after[0] - before[0], after[1] - before[1], after[2] - before[2])
    client_cpu = time.process_time() - mine
    memory = server.memory_mb()
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(verify=False), timeout=60, trust_env=False) as http:
        health = (await http.get(f"http://127.0.0.1:{server.port}/health")).json()
    await asyncio.wait(tasks, timeout=10)  # each person stops at the end of the time by itself
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return Load(figures, seconds, split, client_cpu, playing_at_start, opened, memory, health)


# -- the standings ----------------------------------------------------------------------------------


def quiet(server: Server, most_s: float = 30.0) -> tuple[float, float]:
    """Wait (at most ``most_s``) until the server uses under a tenth of a core (the computer players' last
    decisions, a review, drained): the seconds waited, and the share of a core it used in the last half second."""
    started = time.monotonic()
    while True:
        used = server.cpu_s()
        time.sleep(0.5)
        share = (server.cpu_s() - used) / 0.5
        if share < 0.1 or time.monotonic() > started + most_s:
            return time.monotonic() - started, share


def standings(server: Server, game: str, day: str, entries: int, requests: int) -> dict[str, Any]:
    """The day's standings from a client: the cold first request, back to back, each after the server's kept
    standings have grown old; milliseconds, and how busy the server was meanwhile."""
    fresh_s = STANDINGS_FRESH_S
    url = f"http://127.0.0.1:{server.port}/api/challenge/{game}/{day}"
    waited, server_busy = quiet(server)
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address(1999), verify=False), timeout=120, trust_env=False) as http:

        def timed() -> tuple[float, int, int]:
            started = time.perf_counter()
            response = http.get(url)
            elapsed = (time.perf_counter() - started) * 1000
            response.raise_for_status()
            return elapsed, len(response.json()), len(response.content)

        cpu = server.cpu_s()
        cold, rows, size = timed()
        if rows < entries:
            raise SystemExit(f"the standings list {rows} entries, not the {entries} written: the server did not read them")
        back_to_back = [timed()[0] for _ in range(requests)]
        spaced = []
        for _ in range(requests if fresh_s > 0 else 0):
            time.sleep(fresh_s + 0.1)
            spaced.append(timed()[0])
    return {"cold": cold, "rows": rows, "bytes": size, "back_to_back": back_to_back, "spaced": spaced,
            "fresh_s": fresh_s, "waited": waited, "server_busy": server_busy, "server_cpu_s": server.cpu_s() - cpu}


# -- the run ------------------------------------------------------------------------------------------


def machine() -> str:
    """How fast this machine runs Python now (as challenge_standings.py says it): a shared machine drifts."""
    started = time.perf_counter()
    sum(i * i for i in range(1_000_000))
    return (f"load average {os.getloadavg()[0]:.1f}, a million-step Python loop in {1000 * (time.perf_counter() - started):.0f} ms"
            " (about 50 ms on an idle core)")


def milliseconds(values: list[float]) -> str:
    if not values:
        return "none"
    ms = [v * 1000 for v in values]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, worst {max(ms):.1f} ms"


def report(args: argparse.Namespace, load: Load, server_log: Path) -> None:
    f = load.figures
    loop, threads, workers = load.server_split_s
    cpu = loop + threads + workers
    moves = max(1, f.moves)
    print(f"people: {args.people} (arrived over {args.ramp:.0f} s; {load.playing_at_start} playing when the measuring began,"
          f" {len(f.failed)} failed)", flush=True)
    print(f"challenge requests (POST /api/challenge/{args.game}): {milliseconds(f.starts)}")
    print(f"moves: {f.moves} in {load.seconds:.1f} s = {f.moves / max(1e-9, load.seconds):.1f} moves/s (all moves: the"
          f" people's and the computer players'); refusals {f.refusals}")
    print(f"acknowledgement of a person's move ({len(f.acks)} moves): {milliseconds(f.acks)}")
    if f.all_seated_at is not None and f.all_seated_at > load.opened:
        # the arrivals' requests (each a table made, several database writes) are over: the steady state
        later = [a for a, at in zip(f.acks, f.acks_at, strict=True) if at >= f.all_seated_at]
        print(f"  after everyone was seated ({f.all_seated_at - load.opened:.1f} s into the window; {len(later)} moves):"
              f" {milliseconds(later)}")
    print(f"server CPU a move: {1000 * cpu / moves:.2f} ms (event loop {1000 * loop / moves:.2f} / other threads, the"
          f" computer players' in threads {1000 * threads / moves:.2f} / worker processes, the computer players'"
          f" and the reviews' {1000 * workers / moves:.2f});"
          f" cores busy: server {cpu / max(1e-9, load.seconds):.2f}, this script {load.client_cpu_s / max(1e-9, load.seconds):.2f}")
    print(f"this script's event loop woke late by {milliseconds(f.late)}")
    now, peak = load.memory_mb
    print(f"server resident memory: {now:.0f} MB (peak {peak:.0f} MB; with its review workers); tables in memory"
          f" {load.health.get('tables')}")
    collector = load.health.get("collector")
    if collector:
        print("server collector: " + ", ".join(f"gen{g}: {c['collections']} in {c['total_ms']:.0f} ms (worst {c['worst_ms']:.0f})"
                                                for g, c in enumerate(collector["generations"])))
    print(f"challenges finished: {f.finished} of {args.people}", flush=True)
    for line in f.failed[:5]:
        print(f"  {line}")
    if f.failed:  # why, as the server saw it (its log goes with its folder at the end of the run)
        for line in server_errors(server_log)[:40]:
            print(f"  server: {line}")


def server_errors(log: Path) -> list[str]:
    """The server log's errors and tracebacks (its warnings and errors: ``--log-level warning``)."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    return [line[:300] for line in lines if "error" in line.lower() or "Traceback" in line or line.startswith(("  ", "\t"))]


def print_standings(s: dict[str, Any], game: str, day: str) -> None:
    print(f"standings (GET /api/challenge/{game}/{day}, {s['rows']} finished entries, {s['bytes'] / 1000:.0f} kB):"
          f" cold first request {s['cold']:.1f} ms (after {s['waited']:.0f} s waiting for the server to go quiet: it was"
          f" using {s['server_busy']:.2f} cores)")
    timed = [v / 1000 for v in s["back_to_back"]]
    print(f"  {len(timed)} back to back (kept by the server up to {s['fresh_s']:.0f} s): {milliseconds(timed)}")
    if s["spaced"]:
        timed = [v / 1000 for v in s["spaced"]]
        print(f"  {len(timed)} each {s['fresh_s'] + 0.1:.1f} s after the last (worked out each time): {milliseconds(timed)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--game", default="neuf", choices=sorted(CHALLENGES))
    parser.add_argument("--seconds", type=float, default=60, help="measured time, after the arrivals")
    parser.add_argument("--ramp", type=float, default=5, help="seconds over which the people arrive")
    parser.add_argument("--bot-delay-ms", type=int, default=DEFAULT_BOT_DELAY_MS,
                        help="the computer players' pause before each move (default: nines serve's)")
    parser.add_argument("--standings-entries", type=int, default=10_000, help="finished entries the day is given (0: none)")
    parser.add_argument("--standings-requests", type=int, default=20, help="standings requests timed each way (0: none)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--thinking", choices=("processes", "threads"), default="processes",
                        help="where the server's computer players think (nines serve --thinking-processes/--thinking-threads)")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, writing server-PORT.prof here "
                        "(slower: for where the time goes, not for the figures)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="nines-challenge-load-"))
    postgres = PostgresCluster(postgres_binaries(), durable=True) if args.database == "postgresql" else None
    server: Server | None = None
    try:
        url = postgres.new_database() if postgres else f"sqlite:///{folder / 'nines.db'}"
        day = dt.datetime.now(dt.UTC).date().isoformat()  # the server's day: nines serve has no option for another
        print(f"the daily challenge of {args.game} ({CHALLENGES[args.game].deals} deals, computer players"
              f" {CHALLENGES[args.game].bot}, {args.bot_delay_ms} ms pause), {args.database}, one server process;"
              f" {os.cpu_count()} cores; at the start: {machine()}", flush=True)
        if args.standings_entries:
            filled_s = fill_day(url, day, args.game, args.standings_entries, args.seed)
            print(f"{args.standings_entries} finished entries written for {day} in {filled_s:.1f} s", flush=True)
        # --away: nobody leaves during the load, and after it a stand-in taking the seats the people left (60 s
        # later by default) would play on while the standings are timed
        options = ("--bot-delay", str(args.bot_delay_ms / 1000), "--away", "3600", f"--thinking-{args.thinking}")
        server = Server(url, None, folder, args.profile, options)
        told = httpx.get(f"http://127.0.0.1:{server.port}/api/challenge", timeout=30).json()["day"]
        if told != day:
            raise SystemExit(f"the server's day is {told}, the entries were written for {day} (midnight UTC): run it again")
        load = asyncio.run(drive(server, args))
        report(args, load, Path(server.log.name))
        if args.standings_requests:
            print_standings(standings(server, args.game, day, args.standings_entries, args.standings_requests), args.game, day)
        print(f"at the end: {machine()}", flush=True)
    finally:
        if server is not None:
            server.close()
        if postgres:
            postgres.close()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
