"""The daily challenge's standings with many finished entries: the time of ``GET /api/challenge/{game}/{day}``'s
work (the query of the day's results and the matchpoints), on SQLite or PostgreSQL.

    .venv/bin/python benchmarks/challenge_standings.py --entries 10000
    .venv/bin/python benchmarks/challenge_standings.py --entries 10000 --database-url postgresql://...

Target (issue 29): under 50 ms with 10,000 finished entries.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from nines.challenge import CHALLENGES, standings
from nines.server.store.database import Store
from nines.server.store.schema import ChallengeEntryRow
from nines.server.store.standing import Standing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--game", default="neuf", choices=sorted(CHALLENGES))
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="nines-standings-")
    store = Store(args.database_url or f"sqlite:///{Path(folder) / 'nines.db'}")
    store.migrate()
    standing = Standing(store)
    rng = random.Random(1)
    deals = CHALLENGES[args.game].deals
    day = "2026-12-07"
    rows = [{"day": day, "game": args.game, "name": f"p{i:05d}", "table_id": f"t{i:05d}", "seat": "S",
             "results": [float(rng.randint(-4, 4)) for _ in range(deals)], "finished": True} for i in range(args.entries)]
    with store.engine.begin() as connection:
        connection.execute(insert(ChallengeEntryRow), rows)
    times, reads = [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        results = standing.day_results(day, args.game)
        read = time.perf_counter()
        body = [s.as_dict() for s in standings(results)]
        times.append((time.perf_counter() - started) * 1000)
        reads.append((read - started) * 1000)
    store.close()
    started = time.perf_counter()
    sum(i * i for i in range(1_000_000))
    loop_ms = (time.perf_counter() - started) * 1000
    print(f"this machine now: a million-step Python loop in {loop_ms:.0f} ms (about 50 ms on an idle core)")
    print(f"{args.entries} finished entries, {deals} deals each ({store.engine.dialect.name}): "
          f"standings in {statistics.median(times):.1f} ms median (the query {statistics.median(reads):.1f} ms), "
          f"{max(times):.1f} ms slowest of {args.repeat}; "
          f"first {body[0]['name']} {body[0]['percent']} %")


if __name__ == "__main__":
    main()
