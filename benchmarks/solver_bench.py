"""Benchmark of the exact solvers on random full deals, one core.

    python benchmarks/solver_bench.py --form elyigit --deals 1000
    python benchmarks/solver_bench.py --form neuf3 --deals 1000
    python benchmarks/solver_bench.py --form partners --deals 1000
    python benchmarks/solver_bench.py --form elyigit --deals 1000 --scores

Forms: ``elyigit`` (36 cards, one trump and leader, NS tricks), ``neuf3`` (three hands of
13 from 52, one player's paranoid value), ``partners`` (52 cards in four hands, bridge
card play, one trump and leader), ``individual`` (52 cards, one seat's paranoid value
against the other three).  Trump (including no trumps) and leader are drawn at random
unless ``--trump`` / ``--leader`` fix them.  With ``--scores`` each deal is also scored
card by card at trick one, and the ratio to the single solve is reported.

Prints mean, median, 99th percentile and worst time per solve, nodes per second and the
transposition table's memory.  With ``--repeat K`` each solve is timed K times (each from an
empty table, so each does the same work) and the fastest counts: other work on the machine
only ever adds time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from nines.cards import SUITS, Suit, deck_36, deck_52
from nines.solver import Position, Solver, make_position

T = TypeVar("T")

FORMS = {
    # form: (game, solver form, seats, cards per hand, deck)
    "elyigit": ("elyigit", "partners", ("N", "E", "S", "W"), 9, deck_36),
    "neuf3": ("neuf", "three", ("S", "W", "E"), 13, deck_52),
    "partners": ("neuf", "partners", ("N", "E", "S", "W"), 13, deck_52),
    "individual": ("neuf", "individual", ("N", "E", "S", "W"), 13, deck_52),
}


def random_position(form: str, rng: random.Random, trump: str | None, leader: str | None) -> tuple[Position, str]:
    game, solver_form, seats, size, deck = FORMS[form]
    cards = rng.sample(deck(), size * len(seats))
    hands = {seat: cards[i * size : (i + 1) * size] for i, seat in enumerate(seats)}
    if trump is None:
        trump_suit: Suit | None = rng.choice([None, *SUITS])
    else:
        trump_suit = None if trump.upper() == "NT" else Suit.parse(trump)
    lead = leader or rng.choice(seats)
    position = make_position(game, hands, trump_suit, lead, form=solver_form)
    side = "NS" if solver_form == "partners" else rng.choice(seats)
    return position, side


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def describe(label: str, times: Sequence[float]) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"{label}: mean {statistics.fmean(ms):.3f} ms, median {statistics.median(ms):.3f} ms, "
        f"p99 {percentile(ms, 0.99):.3f} ms, worst {max(ms):.3f} ms"
    )


def fastest_of(runs: int, solver: Solver, work: Callable[[], T]) -> tuple[T, float]:
    """The result of ``work`` and its fastest time over ``runs`` runs, each from an empty table."""
    best = float("inf")
    for _ in range(runs):
        solver.clear()
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return result, best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--form", choices=sorted(FORMS), default="elyigit")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--table-mb", type=float, default=None, help="transposition table limit (default: the solver's)"
    )
    parser.add_argument("--trump", default=None, help="S H D C or NT (default: random per deal)")
    parser.add_argument("--leader", default=None, help="seat on lead (default: random per deal)")
    parser.add_argument("--scores", action="store_true", help="also score every legal card at trick one")
    parser.add_argument("--no-partition", action="store_true", help="key the table on every card (for comparison)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time each solve this many times (an empty table each time) and keep the fastest: "
        "other work on the machine only ever adds time",
    )
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    kwargs = {} if args.table_mb is None else {"table_mb": args.table_mb}
    solver = Solver(**kwargs, partition=not args.no_partition)
    times: list[float] = []
    score_times: list[float] = []
    nodes = 0
    values: list[int] = []
    repeat = max(1, args.repeat)
    for _ in range(args.deals):
        position, side = random_position(args.form, rng, args.trump, args.leader)
        # every run starts from an empty table, so every run does the same work
        value, seconds = fastest_of(repeat, solver, partial(solver.value, position, side))
        times.append(seconds)
        nodes += solver.info().last_nodes
        values.append(value)
        if args.scores:
            scores, seconds = fastest_of(repeat, solver, partial(solver.score_cards, position))
            score_times.append(seconds)
            best = max(scores.values())
            mover_value = (
                value
                if position.side_of(position.to_play) == side or args.form != "partners"
                else position.tricks_left - value
            )
            if args.form == "partners" or position.to_play == side:
                assert best == mover_value, (str(position), scores, value)

    info = solver.info()
    total = sum(times)
    runs = f", fastest of {repeat} runs each" if repeat > 1 else ""
    print(f"{args.form}: {args.deals} random deals, seed {args.seed}, one core{runs}")
    print(describe("solve", times))
    print(f"nodes: {nodes / args.deals:,.0f} per solve, {nodes / total / 1e6:.2f} M nodes/s")
    print(f"mean value: {statistics.fmean(values):.2f} tricks")
    if score_times:
        print(describe("score every card at trick one", score_times))
        print(f"scoring / single solve (means): {statistics.fmean(score_times) / statistics.fmean(times):.2f}x")
    print(
        f"table: limit {info.limit_bytes / 2**20:.0f} MB, allocated {info.table_bytes / 2**20:.0f} MB, "
        f"{info.buckets_used:,} of {info.buckets:,} buckets and {info.entries:,} entries in use after the last deal"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
