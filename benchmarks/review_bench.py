"""Benchmark of the review (``nines review``): time to review recorded deals of each trick form, one core.

    python benchmarks/review_bench.py                       # 200 deals of each form
    python benchmarks/review_bench.py --forms elyigit,three --deals 50
    python benchmarks/review_bench.py --players random      # deals played by random players
    python benchmarks/review_bench.py --forms partners --deals 40 --event-loop   # the server's way

Forms: ``elyigit`` (Elyigit's Nines), ``three`` (three-player Le Neuf), ``partners``
(Newfoundland partnerships), ``individual`` (four alone, under the review's default node
budget).  The deals are recorded first (matches between computer players, seeded, not
timed), then each deal is reviewed as the server does it -- rebuilt with the rules engine,
the exchange or the contract and every card played scored -- with one set of solvers
reused from deal to deal, as a server thread does.

Prints, per form, the mean, median, 99th percentile and worst time a deal, against the
targets (mean under 0.5 s, worst under 2 s); for the four-alone form, how many cards and
deals were left unscored at the node budget.  Timings include everything but reading the
record; other work on the machine only adds to them, so say how busy it was.

``--event-loop`` reviews the deals the server's way instead (the server's review pool, two
threads, every deal submitted at once) while an asyncio task wakes every 5 ms, and prints
how late the event loop ran at worst and at the 99th percentile, with and without the
reviews running: what other tables would feel.  The CPU time
of the reviewing thread is printed too: on a shared machine it is the closer measure of the
work (the targets are judged on the wall clock).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from nines.bots import make_player
from nines.games import get_game
from nines.review import Solvers, review_deal

FORMS: dict[str, tuple[str, str]] = {
    # form: (game, preset)
    "elyigit": ("elyigit", "standard"),
    "three": ("neuf", "standard"),
    "partners": ("neuf", "newfoundland-partners"),
    "individual": ("neuf", "four-individual"),
}

TARGET_MEAN_S = 0.5
TARGET_WORST_S = 2.0


def recorded_deals(form: str, count: int, seed: int, player: str) -> list[tuple[Any, Mapping[str, Any]]]:
    """``count`` finished deals with cards played, from matches between computer players."""
    game, preset = FORMS[form]
    spec = get_game(game)
    options = spec.options(preset)
    deals: list[tuple[Any, Mapping[str, Any]]] = []
    match = 0
    while len(deals) < count:
        state = spec.new_match(options, seed * 100_000 + match)
        rng = random.Random(seed * 100_000 + match)
        players = {seat: make_player(player, game, random.Random(rng.random())) for seat in state.seats}
        while not state.is_over:
            seat = state.acting_seat
            assert seat is not None
            state.apply(players[seat].decide(state.view(seat)).action, by=seat)
        deals.extend(
            (options, deal)
            for deal in state.record()["deals"]
            if any(a.get("action") == "play" for a in deal.get("actions", [])) and deal.get("result") is not None
        )
        match += 1
    return deals[:count]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def bench(form: str, deals: list[tuple[Any, Mapping[str, Any]]], max_nodes: int | str | None = "default") -> dict[str, Any]:
    game, _ = FORMS[form]
    solvers = Solvers()
    times: list[float] = []
    cpu: list[float] = []
    unscored_cards = 0
    unscored_deals: list[int] = []
    cards = 0
    nodes: list[int] = []
    for i, (options, deal) in enumerate(deals):
        start, start_cpu = time.perf_counter(), time.thread_time()
        review = review_deal(game, options, deal, solvers=solvers, max_nodes=max_nodes)
        times.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        nodes.append(review.nodes)
        cards += len(review.plays)
        missing = len(review.unscored)
        if missing:
            unscored_cards += missing
            unscored_deals.append(i)
    return {
        "form": form,
        "deals": len(deals),
        "mean": statistics.fmean(times),
        "median": statistics.median(times),
        "p99": percentile(times, 0.99),
        "worst": max(times),
        "cpu_mean": statistics.fmean(cpu),
        "cpu_p99": percentile(cpu, 0.99),
        "cpu_worst": max(cpu),
        "cards": cards,
        "nodes_mean": statistics.fmean(nodes),
        "nodes_worst": max(nodes),
        "unscored_cards": unscored_cards,
        "unscored_deals": len(unscored_deals),
    }


async def _loop_lateness(seconds: float | None, until: Any = None) -> list[float]:
    """How late a 5 ms sleep wakes, for ``seconds`` or until the future ``until`` is done."""
    import asyncio

    late: list[float] = []
    start = time.perf_counter()
    while (until is not None and not until.done()) or (until is None and time.perf_counter() - start < (seconds or 0)):
        before = time.perf_counter()
        await asyncio.sleep(0.005)
        late.append(time.perf_counter() - before - 0.005)
    return late


def bench_event_loop(form: str, deals: list[tuple[Any, Mapping[str, Any]]], processes: bool = False) -> dict[str, Any]:
    """Review every deal on the server's pool while measuring the event loop's lateness."""
    import asyncio

    from nines.server.records.review import ReviewJob, Reviews

    game, _ = FORMS[form]

    async def run() -> dict[str, Any]:
        idle = await _loop_lateness(2.0)
        reviews = Reviews(processes=processes)
        if processes:  # the worker processes start (and import) before the clock does
            await asyncio.wrap_future(reviews.submit(ReviewJob("warm", 0, game, deals[0][0], (deals[0][1],))))
        start = time.perf_counter()
        futures = [
            asyncio.wrap_future(reviews.submit(ReviewJob("bench", i + 1, game, options, (deal,))))
            for i, (options, deal) in enumerate(deals)
        ]
        everything = asyncio.gather(*futures)
        busy = await _loop_lateness(None, everything)
        await everything
        elapsed = time.perf_counter() - start
        reviews.close()
        return {"idle": idle, "busy": busy, "elapsed": elapsed}

    out = asyncio.run(run())
    out["form"] = form
    out["deals"] = len(deals)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forms", default=",".join(FORMS), help=f"comma-separated forms: {', '.join(FORMS)}")
    parser.add_argument("--deals", type=int, default=200, help="deals reviewed per form (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the matches the deals come from")
    parser.add_argument("--players", default="basic", help="computer players who play the deals (default basic)")
    parser.add_argument(
        "--max-nodes", type=int, default=None, help="node budget of each deal (default: the review's own, 0: none)"
    )
    parser.add_argument("--event-loop", action="store_true", help="review on the server's pool and measure the event loop")
    parser.add_argument("--processes", action="store_true", help="with --event-loop: the pool's work in worker processes")
    args = parser.parse_args(argv)
    forms = [f.strip() for f in args.forms.split(",") if f.strip()]
    unknown = [f for f in forms if f not in FORMS]
    if unknown:
        parser.error(f"unknown form(s) {', '.join(unknown)}; the forms are {', '.join(FORMS)}")
    if args.event_loop:
        print("event loop lateness (ms) while the server's review pool works, against the same loop idle")
        for form in forms:
            row = bench_event_loop(form, recorded_deals(form, args.deals, args.seed, args.players), args.processes)
            idle, busy = row["idle"], row["busy"]
            print(
                f"{form:<11} {row['deals']} deals in {row['elapsed']:.1f} s; idle: p99 {percentile(idle, 0.99) * 1000:.1f} "
                f"worst {max(idle) * 1000:.1f}; reviewing: p99 {percentile(busy, 0.99) * 1000:.1f} worst {max(busy) * 1000:.1f}",
                flush=True,
            )
        return 0
    print(f"review of {args.deals} recorded deals per form, played by '{args.players}' players, seed {args.seed}, one core")
    print(f"{'':<17} {'wall-clock seconds a deal':^35}   {'CPU seconds a deal':^26}")
    print(
        f"{'form':<11} {'deals':>5} {'mean':>8} {'median':>8} {'p99':>8} {'worst':>8}   {'mean':>8} {'p99':>8} {'worst':>8}"
        f"  target (mean < {TARGET_MEAN_S}, worst < {TARGET_WORST_S})"
    )
    failed = False
    for form in forms:
        deals = recorded_deals(form, args.deals, args.seed, args.players)
        row = bench(form, deals, "default" if args.max_nodes is None else (args.max_nodes or None))
        ok = row["mean"] < TARGET_MEAN_S and row["worst"] < TARGET_WORST_S
        failed |= not ok
        print(
            f"{form:<11} {row['deals']:>5} {row['mean']:>8.3f} {row['median']:>8.3f} {row['p99']:>8.3f} {row['worst']:>8.3f}   "
            f"{row['cpu_mean']:>8.3f} {row['cpu_p99']:>8.3f} {row['cpu_worst']:>8.3f}  "
            f"{'met' if ok else 'MISSED'}",
            flush=True,
        )
        print(f"{'':<11} nodes a deal: mean {row['nodes_mean']:,.0f}, most {row['nodes_worst']:,}")
        if form == "individual" or row["unscored_cards"]:
            print(
                f"{'':<11} {row['unscored_cards']} of {row['cards']} cards unscored at the node budget, "
                f"in {row['unscored_deals']} of {row['deals']} deals"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
