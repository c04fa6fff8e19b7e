"""What one client address can cost a real ``nines serve`` with plain HTTP requests (docs/bounded-clients.md).

A flooder at 127.0.0.2 sends one kind of request, ``--concurrency`` at a time on kept-alive connections, for
``--seconds``; meanwhile a person at 127.0.0.1 (another address) asks ``/health`` and sends a seated socket's
move every 0.2 s at a solo table.  Printed: the flooder's requests a second and their statuses, the server's CPU time
per request (from /proc), the person's ``/health`` and move acknowledgement times (p50, worst), and for ``people``
the rows the database gained.

    PYTHONPATH=src python benchmarks/api_flood.py --database sqlite --kind people
    PYTHONPATH=src python benchmarks/api_flood.py --database postgresql --kind state --seconds 10

Kinds: none (nobody floods), people (a fresh name each), info, state, resolve, stats, claim, actions (stale), games, lobby.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.services import PostgresCluster, ServerProcess, postgres_bindir

KINDS = ("none", "links", "pace", "replay", "computers", "people", "info", "state", "resolve", "stats", "claim", "actions", "games", "lobby", "health")


def cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request_for(kind: str, table: str, seat: str) -> tuple[str, str, dict[str, Any] | None, dict[str, str]]:
    if kind == "people":
        return "POST", "/api/people", {"name": f"p{uuid.uuid4().hex[:20]}"}, {}
    if kind == "info":
        return "GET", f"/api/tables/{table}", None, {}
    if kind == "state":
        return "GET", f"/api/tables/{table}/state", None, {}
    if kind == "resolve":
        return "POST", "/api/games/neuf/resolve", {"preset": None, "options": {}}, {}
    if kind == "stats":
        return "GET", "/api/people/Alice/stats", None, {}
    if kind == "claim":
        return "POST", f"/api/tables/{table}/claim", {"claim": uuid.uuid4().hex}, {}
    if kind == "actions":
        return "POST", f"/api/tables/{table}/actions", {"seat": seat, "token": "x" * 20, "seq": 0, "action": "play 9S"}, {}
    if kind == "games":
        return "GET", "/api/games", None, {}
    if kind == "replay":  # a deal of a finished match (--late), any of its first 150
        return "GET", f"/api/tables/{table}/replay/{random.randint(1, 150)}", None, {}
    if kind == "lobby":
        return "GET", "/api/tables", None, {}
    return "GET", "/health", None, {}


async def flood(base: str, kind: str, table: str, seat: str, seconds: float, concurrency: int,
                statuses: Counter[int]) -> None:
    if kind == "none":  # the person's figures with nobody flooding
        await asyncio.sleep(seconds)
        return
    if kind in ("links", "pace"):
        await flood_sockets(base, kind, seconds, statuses)
        return
    if kind == "computers":
        await computer_tables(base, seconds, statuses)
        return
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        end = time.monotonic() + seconds

        async def worker() -> None:
            while time.monotonic() < end:
                method, path, body, headers = request_for(kind, table, seat)
                try:
                    response = await client.request(method, path, json=body, headers=headers)
                    statuses[response.status_code] += 1
                except httpx.HTTPError as error:
                    statuses[-1] += 1
                    print("flooder:", type(error).__name__, file=sys.stderr)

        await asyncio.gather(*(worker() for _ in range(concurrency)))


SEATED: dict[str, list[dict[str, Any]]] = {}


async def computer_tables(base: str, seconds: float, statuses: Counter[int], tables: int = 12) -> None:
    """Computer-only Le Neuf tables from 99 points with no pause between moves, as many as an address makes in
    a minute, each kept watched (asked for every 2 s) so that it plays on."""
    seats = {seat: {"kind": "bot", "bot": "random"} for seat in GAME_SEATS["neuf"]}
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        made = [(await client.post("/api/tables", json={"game": "neuf", "seats": seats, "bot_delay_ms": 0,
                                                         "options": {"start_score": 99}})).json() for _ in range(tables)]
        while time.monotonic() < end:
            for created in made:
                if "table" in created:
                    statuses[(await client.get(f"/api/tables/{created['table']['id']}")).status_code] += 1
            await asyncio.sleep(2)


async def flood_sockets(base: str, kind: str, seconds: float, statuses: Counter[int], tables: int = 12,
                        per_seat: int = 3, rate: int = 19) -> None:
    """Seated sockets (``per_seat`` at each of ``tables`` tables of one address) each asking for a device link
    or setting the computer players' pace ``rate`` times a second, within the socket's message rate."""
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    if base not in SEATED:  # made once per server (an address makes 12 tables a minute)
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
            SEATED[base] = [(await client.post("/api/tables", json={"game": "neuf", "seats": seats})).json() for _ in range(tables)]
    made = SEATED[base]
    message = json.dumps({"type": "device_link"} if kind == "links" else {"type": "pace", "seq": 0, "delay_ms": 900})
    end = time.monotonic() + seconds
    ws = base.replace("http://", "ws://")

    async def seated(created: dict[str, Any]) -> None:
        async with connect(f"{ws}/ws/tables/{created['table']['id']}", local_addr=("127.0.0.2", 0), max_size=None) as socket:
            await socket.send(json.dumps({"type": "hello", "seat": created["seat"], "token": created["token"]}))

            async def read() -> None:
                async for text in socket:
                    statuses[json.loads(text)["type"]] += 1  # type: ignore[index]

            reading = asyncio.create_task(read())
            while time.monotonic() < end:
                await socket.send(message)
                await asyncio.sleep(1 / rate)
            reading.cancel()

    await asyncio.gather(*(seated(created) for created in made for _ in range(per_seat)))


async def probe(base: str, ws: str, seconds: float) -> tuple[list[float], list[float]]:
    """A person at another address: ``/health``, and a move played at a solo table (computer players answer at
    once) every 0.2 s, timed from sending it to its acknowledgement (stored in the database)."""
    health: list[float] = []
    acks: list[float] = []
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while time.monotonic() < end:
            created = (await client.post("/api/tables", json={"game": "neuf", "seats": seats, "bot_delay_ms": 0})).json()
            async with connect(f"{ws}/ws/tables/{created['table']['id']}", max_size=None) as socket:
                await socket.send(json.dumps({"type": "hello", "seat": created["seat"], "token": created["token"]}))
                while time.monotonic() < end:
                    started = time.perf_counter()
                    await client.get("/health")
                    health.append(time.perf_counter() - started)
                    await socket.send(json.dumps({"type": "resync"}))
                    while (state := json.loads(await socket.recv()))["type"] != "state":
                        pass
                    if state["table"]["status"] == "over":
                        break
                    if state["view"]["legal"]:
                        started = time.perf_counter()
                        await socket.send(json.dumps({"type": "act", "seq": state["seq"], "action": state["view"]["legal"][0]}))
                        while json.loads(await socket.recv())["type"] not in ("ack", "error"):
                            pass
                        acks.append(time.perf_counter() - started)
                    await asyncio.sleep(0.2)
    return health, acks


async def finished_table(base: str, game: str) -> str:
    """A computer-only match played to its end (its view, record and statistics are the largest)."""
    seats = {seat: {"kind": "bot", "bot": "random"} for seat in GAME_SEATS[game]}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        options = {"start_score": 99} if game == "neuf" else {}  # the longest Le Neuf match: 171 deals, 7,182 moves
        created = (await client.post("/api/tables", json={"game": game, "seats": seats, "bot_delay_ms": 0,
                                                          "options": options})).json()
        table = created["table"]["id"]
        for _ in range(600):  # at most five minutes
            if (await client.get(f"/api/tables/{table}")).json()["status"] != "playing":
                break
            await asyncio.sleep(0.5)
    return str(table)


GAME_SEATS = {"neuf": ("S", "W", "E"), "elyigit": ("N", "E", "S", "W"), "rummy": ("1", "2", "3", "4")}


async def run(server: ServerProcess, kind: str, seconds: float, concurrency: int, late: str | None) -> None:
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        created = (await client.post("/api/tables", json={"game": "neuf", "seats": seats})).json()
    table, seat = created["table"]["id"], created["seat"]
    target = await finished_table(server.http, late) if late else table
    statuses: Counter[int] = Counter()
    before = cpu_s(server.process.pid)
    _, (health, answers) = await asyncio.gather(
        flood(server.http, kind, target, seat, seconds, concurrency, statuses),
        probe(server.http, server.ws, seconds))
    spent = cpu_s(server.process.pid) - before
    total = sum(statuses.values())
    print(f"{kind}: {total / seconds:.0f} requests/s from one address ({dict(statuses)}), "
          f"server CPU {spent / seconds * 100:.0f}% of a core, {spent / max(total, 1) * 1000:.2f} ms per request")
    print(f"  another address: /health p50 {statistics.median(health) * 1000:.0f} ms worst {max(health) * 1000:.0f} ms; "
          f"a move acknowledged p50 {statistics.median(answers) * 1000:.0f} ms worst {max(answers) * 1000:.0f} ms ({len(answers)} moves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--kind", choices=KINDS, action="append", help="repeatable (default: people)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--late", choices=tuple(GAME_SEATS), help="flood a finished computer-only match of this game")
    parser.add_argument("--option", action="append", default=[], help="passed to nines serve (e.g. --option=--api-per-minute=0)")
    args = parser.parse_args()
    kinds = args.kind or ["people"]
    cluster = None
    folder = Path(tempfile.mkdtemp(prefix="nines-flood-"))
    if args.database == "postgresql":
        bindir = postgres_bindir()
        if bindir is None:
            sys.exit("PostgreSQL is not installed")
        cluster = PostgresCluster(bindir, durable=True)
        url = cluster.new_database()
    else:
        url = f"sqlite:///{folder / 'nines.db'}"
    server = ServerProcess(url, folder=folder, bot_delay=5.0, options=args.option)
    try:
        httpx.post(f"{server.http}/api/people", json={"name": "Alice"})  # a known name, for --kind stats
        for kind in kinds:
            before = people_rows(url)
            asyncio.run(run(server, kind, args.seconds, args.concurrency, args.late))
            if kind == "people":
                added = people_rows(url) - before
                print(f"  the database gained {added} people ({added / args.seconds:.0f} rows a second)")
    finally:
        server.stop()
        if cluster is not None:
            cluster.close()


def people_rows(url: str) -> int:
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(sqlalchemy.text("select count(*) from nines_people")).scalar_one())
    finally:
        engine.dispose()


if __name__ == "__main__":
    main()
