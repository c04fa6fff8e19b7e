"""How the Elyigit players bid: a call model (:class:`~nines.bots.expert_elyigit.CallModel`) fitted to their calls.

Plays the auctions of ``--deals`` deals (shuffled from ``--seed`` as in ``elyigit_loss_split.py``) with
the expert pair (``--expert-args``) North-South against two ``--opponents``, and logs every call with
the basic player's valuation of the caller's true hand (``strength``), the support the caller counts
on from its partner's calls, the standing bid and whether the caller's partner holds it.  Then, for
each kind of caller, it prints the log-likelihood of its calls under the basic model as first written
(slack 0.3, spread 0.7, jumps 0.5, for every caller) and under the best model of a grid (maximum likelihood): the slack of a bid over the
opponents (or an opening), of one over the partner, the spread and the jumps.  The expert's
``SELF_MODEL`` and ``BASIC_MODEL`` come from this (300 deals of seed 31 against basic).

    python benchmarks/elyigit_call_fit.py --deals 300 --seed 31 --opponents basic --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from nines.bots.elyigit_calls import CALL_SPREAD, call_likelihood, hand_strength, support_from
from nines.bots.elyigit_worlds import code
from nines.games.elyigit import Bid
from nines.games.elyigit.options import SEATS, partner_of, side_of

sys.path.insert(0, str(Path(__file__).parent))
from elyigit_calibration import seated  # the same deals and seats as the calibration

GRID = {
    "over": [0.1, 0.3, 0.5, 0.7, 0.9, 1.1],
    "raise_": [-1.2, -0.9, -0.6, -0.3, 0.0, 0.3],
    "spread": [0.2, 0.3, 0.4, 0.5, 0.7],
    "jumps": [0.0, 0.25, 0.5, 0.75],
}


def _calls(args: tuple[int, int, str, dict[str, Any]]) -> list[dict[str, Any]]:
    opponents = args[2]
    state, players = seated(*args)
    first = state.deal
    hands = {seat: [code(c) for c in first.hands[seat]] for seat in SEATS}
    rows: list[dict[str, Any]] = []
    calls: dict[str, list[str]] = {}
    standing: int | None = None
    holder: str | None = None
    while first.phase == "auction":
        seat = state.acting_seat
        assert seat is not None
        action = players[seat].decide(state.view(seat)).action
        call = f"bid {action.tricks}" if isinstance(action, Bid) else "pass"
        rows.append({"kind": "expert" if seat in ("N", "S") else opponents, "strength": hand_strength(hands[seat]),
                     "support": support_from(calls.get(partner_of(seat), [])), "standing": standing,
                     "raising": holder is not None and side_of(holder) == side_of(seat), "call": call})
        calls.setdefault(seat, []).append(call)
        if isinstance(action, Bid):
            standing, holder = action.tricks, seat
        before = len(state.deals)
        state.apply(action, by=seat)
        if len(state.deals) > before:
            break  # thrown in
    return rows


def log_likelihood(rows: list[dict[str, Any]], over: float, raise_: float, spread: float, jumps: float) -> float:
    return sum(math.log(call_likelihood(r["strength"], r["call"], r["standing"], 5, r["support"], jumps, spread,
                                        raise_ if r["raising"] else over)) for r in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponents", default="basic")
    parser.add_argument("--expert-args", default="{}", help="JSON keyword arguments of ElyigitExpert")
    parser.add_argument("--save", help="write every call to this JSON file")
    args = parser.parse_args(argv)
    jobs = [(args.seed, i, args.opponents, json.loads(args.expert_args)) for i in range(args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = [row for deal in pool.map(_calls, jobs) for row in deal]
    else:
        rows = [row for job in jobs for row in _calls(job)]
    if args.save:
        Path(args.save).write_text(json.dumps(rows))
    print(f"{args.deals} deals of seed {args.seed}; expert {args.expert_args} (N-S) against {args.opponents}")
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        default = log_likelihood(mine, 0.3, 0.3, CALL_SPREAD, 0.5)
        best = max(itertools.product(*GRID.values()), key=lambda p: log_likelihood(mine, *p))
        print(f"  {kind}: {len(mine)} calls; log-likelihood {default:.1f} read with the basic model as first written (slack 0.3, spread {CALL_SPREAD}, "
              f"jumps 0.5), {log_likelihood(mine, *best):.1f} with the best model: "
              + ", ".join(f"{k} {v:+.1f}" for k, v in zip(GRID, best, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
