"""How long the rummy computer players think: CPU time per decision at 2, 4 and 6 players.

Plays duplicate tournaments of one player against ``basic`` (one seat each way round)
and prints each player's median, 90th percentile, worst and mean decision time, measured
as the CPU time of the deciding thread (time on one core, however busy the machine is;
a busy machine still slows it through shared caches, so say so with the figures).

    PYTHONPATH=src python benchmarks/rummy_decisions.py --deals 40 --players expert,ismcts

The goal (issue 20): median under 50 ms, worst under 1 s.
"""

from __future__ import annotations

import argparse
import time

from nines.tournament import GameSetup, TournamentConfig, run
from nines.tournament.stats import quantile


def measure(player: str, seats: int, deals: int, seed: int) -> list[float]:
    lineup = (player,) + ("basic",) * (seats - 1)
    config = TournamentConfig(GameSetup("rummy", overrides={"players": str(seats)}), lineup, deals, seed)
    raw = run(config)
    return [t for jobs in raw.matches for job in jobs for t in job.times.get(player, [])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="expert,ismcts", help="comma-separated rummy players to time")
    parser.add_argument("--seats", default="2,4,6", help="table sizes")
    parser.add_argument("--deals", type=int, default=40, help="hands per table size (each played once per seating)")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    print(f"{'player':8} {'seats':>5} {'decisions':>9} {'median ms':>9} {'p90 ms':>7} {'worst ms':>8} {'mean ms':>7} {'wall s':>6}")
    for player in args.players.split(","):
        for seats in (int(s) for s in args.seats.split(",")):
            start = time.perf_counter()
            times = measure(player, seats, args.deals, args.seed)
            wall = time.perf_counter() - start
            print(
                f"{player:8} {seats:>5} {len(times):>9} {1000 * quantile(times, 0.5):>9.1f} {1000 * quantile(times, 0.9):>7.1f} "
                f"{1000 * max(times):>8.0f} {1000 * sum(times) / len(times):>7.1f} {wall:>6.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
