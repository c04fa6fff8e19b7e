"""Two builds of the compiled solver core, side by side on the same random deals, one process.

    python benchmarks/core_compare.py OTHER.so --form partners --deals 200 --scores

OTHER.so is another build of ``nines.solver._core`` (for example the one before a change,
copied aside before rebuilding: ``cp src/nines/solver/_core.*.so /tmp/before.so``).  Each
deal is solved by both builds in turn (interleaved, alternating which goes first, each from
an empty table), so both see the same machine at the same moment: on a busy or drifting
machine the ratio of the two means is far steadier than two separate runs of
``solver_bench.py``.  Values must agree; node counts tell whether the search itself changed
(a pure move of code leaves them identical, deal by deal).  Deals are drawn exactly as
``solver_bench.py`` draws them (same forms, same seeds).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

from nines.solver import _core

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver_bench import FORMS, random_position


def load_core(path: str) -> ModuleType:
    """Another build of the core, loaded beside this one (its init function has the same name)."""
    spec = importlib.util.spec_from_file_location("other_build._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a loadable extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(solver: Any, method: str, args: tuple[Any, ...]) -> tuple[Any, int, float]:
    solver.clear()
    start = time.perf_counter()
    result, nodes = getattr(solver, method)(*args)
    return result, int(nodes), time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", help="path of another build of nines.solver._core (a .so file)")
    parser.add_argument("--form", choices=sorted(FORMS), default="partners")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--trump", default=None, help="S H D C or NT (default: random per deal)")
    parser.add_argument("--leader", default=None, help="seat on lead (default: random per deal)")
    parser.add_argument("--scores", action="store_true", help="also score every legal card at trick one")
    args = parser.parse_args(argv)

    builds = {"this": _core.Solver(), "other": load_core(args.other).Solver()}
    rng = Random(args.seed)
    times: dict[str, dict[str, list[float]]] = {"solve": {b: [] for b in builds}, "score": {b: [] for b in builds}}
    nodes: dict[str, dict[str, int]] = {"solve": dict.fromkeys(builds, 0), "score": dict.fromkeys(builds, 0)}
    differ = {"solve": 0, "score": 0}
    for deal in range(args.deals):
        position, side = random_position(args.form, rng, args.trump, args.leader)
        core_args = position.core_args()
        counted = "NS" if position.form == "partners" else position.to_play
        calls = [("solve", (*core_args, position.maxmask(side), -1, 0))]
        if args.scores:
            calls.append(("score", (*core_args, position.maxmask(counted), -1, 0)))
        order = list(builds) if deal % 2 == 0 else list(reversed(builds))
        for what, call in calls:
            results = {}
            for build in order:
                result, n, seconds = timed(builds[build], what, call)
                # card scores in any order: a build may score the cards in another order
                results[build] = (sorted(result) if isinstance(result, list) else result, n)
                times[what][build].append(seconds)
                nodes[what][build] += n
            if results["this"][0] != results["other"][0]:
                raise SystemExit(f"deal {deal}: the builds disagree: {results} on {position}")
            differ[what] += results["this"][1] != results["other"][1]

    print(f"{args.form}: {args.deals} random deals, seed {args.seed}, both builds interleaved in one process")
    for what in ("solve", "score") if args.scores else ("solve",):
        this, other = (statistics.fmean(times[what][b]) * 1000 for b in builds)
        n_this, n_other = (nodes[what][b] / args.deals for b in builds)
        print(
            f"{what}: this {this:.3f} ms, other {other:.3f} ms, ratio {this / other:.3f}; "
            f"nodes this {n_this:,.0f}, other {n_other:,.0f} a deal; node counts differ on {differ[what]} deals"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
