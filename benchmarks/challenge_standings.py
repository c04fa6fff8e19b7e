"""The daily challenge's standings with many finished entries: the time of ``GET /api/challenge/{game}/{day}``,
on SQLite or PostgreSQL.

    .venv/bin/python benchmarks/challenge_standings.py --entries 10000
    .venv/bin/python benchmarks/challenge_standings.py --entries 10000 --database postgresql   # a private cluster
    .venv/bin/python benchmarks/challenge_standings.py --entries 10000 --database-url postgresql://...

Prints the work of standings not kept (the query of the day's results, the matchpoints, the JSON: what the
server does in a thread once an entry has finished), then whole requests through the app (Starlette's test
client, the app's own thread pool): standings not kept (each request after a finish) and kept ones.  Medians
of ``--repeat``; a million-step Python loop first says how busy the machine is.

Target (issue 29): under 50 ms with 10,000 finished entries.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert

from nines.challenge import CHALLENGES, standing_table
from nines.server import ServerConfig, create_app
from nines.server.store.database import Store
from nines.server.store.schema import ChallengeEntryRow
from nines.server.store.standing import Standing
from nines.server.tables.standings import work_out

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`", category=Warning)
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.services import PostgresCluster, postgres_bindir

DAY = "2026-12-07"


def _median_ms(work: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """The median and the slowest wall time, and the median CPU time of this process (all its threads: on a busy
    machine the wall time counts the other jobs' turns, the CPU time hardly)."""
    times, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        work()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(times), max(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--game", default="neuf", choices=sorted(CHALLENGES))
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite",
                        help="a SQLite file, or a private PostgreSQL cluster (Debian's postgresql)")
    parser.add_argument("--database-url", default=None, help="a database of your own instead")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    cluster = None
    if args.database_url:
        url = args.database_url
    elif args.database == "postgresql":
        bindir = postgres_bindir()
        if bindir is None:
            parser.error("PostgreSQL is not installed (make test installs it)")
        cluster = PostgresCluster(bindir, durable=True)
        url = cluster.new_database()
    else:
        url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='nines-standings-')) / 'nines.db'}"
    try:
        measure(url, args)
    finally:
        if cluster is not None:
            cluster.close()


def measure(url: str, args: argparse.Namespace) -> None:
    store = Store(url)
    store.migrate()
    standing = Standing(store)
    rng = random.Random(1)
    deals = CHALLENGES[args.game].deals
    rows = [{"day": DAY, "game": args.game, "name": f"p{i:05d}", "table_id": f"t{i:05d}", "seat": "S",
             "results": [float(rng.randint(-4, 4)) for _ in range(deals)], "finished": True} for i in range(args.entries)]
    with store.engine.begin() as connection:
        connection.execute(insert(ChallengeEntryRow), rows)

    loop = _median_ms(lambda: sum(i * i for i in range(1_000_000)), 3)
    print(f"this machine now: a million-step Python loop in {loop[0]:.0f} ms ({loop[2]:.0f} ms CPU; about 50 ms on an "
          f"idle core)")

    results = standing.day_results(DAY, args.game)
    read = _median_ms(lambda: standing.day_results(DAY, args.game), args.repeat)
    scored = _median_ms(lambda: standing_table(results), args.repeat)
    whole = _median_ms(lambda: work_out(standing, DAY, args.game), args.repeat)
    print(f"{args.entries} finished entries, {deals} deals each ({store.engine.dialect.name}), medians of {args.repeat}, "
          f"wall (CPU): standings worked out in {whole[0]:.1f} ms ({whole[2]:.1f} ms; slowest {whole[1]:.1f} ms): "
          f"the query {read[0]:.1f} ms ({read[2]:.1f} ms), the matchpoints {scored[0]:.1f} ms ({scored[2]:.1f} ms), "
          f"the rest the JSON")
    store.close()

    config = ServerConfig(database_url=url, log_json=False, review_processes=False, today=lambda: dt.date(2026, 12, 8))
    app = create_app(config)
    with TestClient(app) as client:
        path = f"/api/challenge/{args.game}/{DAY}"

        def cold() -> None:
            app.state.challenges.day_standings.changed(DAY, args.game)  # as when an entry of the day finishes
            assert client.get(path).status_code == 200

        cold = _median_ms(cold, args.repeat)
        kept = _median_ms(lambda: client.get(path), args.repeat)
        body = client.get(path).json()
    print(f"GET {path} through the app, wall (CPU of server and client): {cold[0]:.1f} ms ({cold[2]:.1f} ms; slowest "
          f"{cold[1]:.1f} ms) worked out, {kept[0]:.1f} ms ({kept[2]:.1f} ms; slowest {kept[1]:.1f} ms) kept; "
          f"{len(body)} rows, first {body[0]['name']} {body[0]['percent']} %")

if __name__ == "__main__":
    main()
