"""This solver against DDS, the bridge double-dummy solver, on random bridge deals, one process.

    pip install -e '.[bench]'          # endplay: DDS for Python (never a dependency of nines itself)
    python benchmarks/dds_compare.py --deals 300 --seed 9001
    python benchmarks/dds_compare.py --deals 300 --seed 2024

Partnership Le Neuf is bridge card play, so both solvers answer the same question.  The deals are
drawn as ``solver_bench.py --form partners`` draws them (52 cards, trump or no trumps and the leader at
random).  Two measures, each from an empty table:

* a single solve: the tricks of the side on lead (DDS: ``SolveBoard`` asked for one optimal card);
* scoring every card at trick one (DDS: ``SolveBoard`` with every card and its score).

Both solvers run in this process on one thread, interleaved deal by deal (which one goes first
alternates), so a busy or drifting machine slows both alike; the figures to read are the ratios.  The
single solves of all deals come first, then the scorings, so that no DDS call follows another on the
same deal (DDS keeps its table for a repeated deal).  Every answer is checked against the other
solver's.

Besides the times, the search effort of each, in the one count DDS reports: the tricks its search
completed (DDS's ``nodes`` are its fourth-hand moves; this solver's nodes are every card tried, about
three a completed trick, so its ``last_tricks`` is the count to compare).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random
from typing import Any

from nines.cards import Card
from nines.solver import Position, Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver_bench import random_position

try:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player
except ImportError:  # pragma: no cover - the optional extra
    sys.exit("dds_compare.py needs endplay (DDS): pip install -e '.[bench]'")

SEATS = ("N", "E", "S", "W")


def dds_deal(position: Position) -> Any:
    deal = Deal(position.deal_text().replace("-", ""))  # a void is empty in PBN
    deal.first = Player(SEATS.index(position.to_play))
    deal.trump = Denom.nt if position.trump is None else Denom(position.trump.index)
    return deal


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def ours_solve(solver: Solver, position: Position) -> int:
    solver.clear()  # every solve from an empty table
    return solver.value(position, position.side_of(position.to_play))


def ours_score(solver: Solver, position: Position) -> dict[Card, int]:
    solver.clear()
    return solver.score_cards(position)


def ours_effort(solver: Solver) -> int:
    """The tricks the last search completed; read after the clock stops (``info`` also walks the
    table to count its entries, work that is no part of a solve)."""
    return solver.info().last_tricks


def dds_solve(deal: Any) -> Any:
    return solve_board(deal, SolveMode.OptimalOne)


def dds_score(deal: Any) -> Any:
    return solve_board(deal, SolveMode.Default)


def dds_value(board: Any) -> int:
    return max(tricks for _, tricks in board)


def dds_scores(board: Any) -> dict[str, int]:
    return {f"{card.rank.abbr}{'SHDC'[card.suit.value]}": tricks for card, tricks in board}


def dds_effort(board: Any) -> int:
    return int(board._data.nodes)  # DDS's nodes: the tricks it completed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--trump", default=None, help="S H D C or NT (default: random per deal)")
    parser.add_argument("--no-scores", action="store_true", help="only the single solves")
    args = parser.parse_args(argv)

    rng = Random(args.seed)
    positions = [random_position("partners", rng, args.trump, None)[0] for _ in range(args.deals)]
    deals = [dds_deal(p) for p in positions]
    solver = Solver()
    times: dict[str, dict[str, list[float]]] = {"solve": {"nines": [], "dds": []}, "score": {"nines": [], "dds": []}}
    effort: dict[str, dict[str, list[int]]] = {"solve": {"nines": [], "dds": []}, "score": {"nines": [], "dds": []}}

    def race(what: str, i: int, ours: Callable[[], Any], theirs: Callable[[], Any]) -> tuple[Any, Any]:
        """Both solvers on one deal, timed; each one's effort is read after its clock stops."""
        order = [("nines", ours), ("dds", theirs)]
        if i % 2:
            order.reverse()
        results = {}
        for name, work in order:
            results[name], seconds = timed(work)
            times[what][name].append(seconds)
            effort[what][name].append(ours_effort(solver) if name == "nines" else dds_effort(results[name]))
        return results["nines"], results["dds"]

    for i, (position, deal) in enumerate(zip(positions, deals, strict=True)):
        mine, board = race("solve", i, lambda p=position: ours_solve(solver, p), lambda d=deal: dds_solve(d))
        if mine != (theirs := dds_value(board)):
            raise SystemExit(f"deal {i}: this solver {mine} tricks, DDS {theirs}: {position}")
    if not args.no_scores:
        for i, (position, deal) in enumerate(zip(positions, deals, strict=True)):
            mine, board = race("score", i, lambda p=position: ours_score(solver, p), lambda d=deal: dds_score(d))
            mine = {card.code: tricks for card, tricks in mine.items()}
            if mine != (theirs := dds_scores(board)):
                raise SystemExit(f"deal {i}: card scores differ: this solver {mine}, DDS {theirs}: {position}")

    print(f"bridge card play: {args.deals} random deals, seed {args.seed}, one thread, interleaved in one process")
    for what, label in (("solve", "single solve"), ("score", "every card at trick one")):
        if not times[what]["nines"]:
            continue
        ours, dds = (statistics.fmean(times[what][name]) * 1000 for name in ("nines", "dds"))
        ours_t, dds_t = (statistics.fmean(effort[what][name]) for name in ("nines", "dds"))
        print(f"{label}: nines {ours:.2f} ms, DDS {dds:.2f} ms, ratio {ours / dds:.3f}")
        print(f"  tricks completed a deal: nines {ours_t:,.0f}, DDS {dds_t:,.0f}, ratio {ours_t / dds_t:.2f}")
    print("answers: identical on every deal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
