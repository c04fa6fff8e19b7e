"""How often the Elyigit expert's contracts are made, by what the solver says they make.

For each deal (shuffled from ``--seed`` as in ``elyigit_loss_split.py``, the dealer turning
round the table) the expert pair (with ``--expert-args``) sits North-South against two
``--opponents`` (``basic`` or ``ismcts``) and plays the deal out.  The contract is then
solved exactly on the true deal: the *margin* is the tricks the declaring side makes
with perfect play on both sides, less the bid.  The table gives, for each side declaring
and each margin, how often the contract was made at the table: a declarer who cannot see
the cards, against defenders who cannot either, makes some contracts the solver calls a
trick short, and fails some it calls made.  That is what the expert's ``declarer_edge``
(our contracts) and ``their_made`` (the opponents') stand for.

It also prints how sure the expert was of its own final bid (the share of its imagined
deals the solver made it in, the percent of its reason) beside how often the solver makes
it on the true deal: a calibration of the imagined deals.  With ``--save`` every deal's
figures are written out; ``--compare FILE`` pairs this run with a saved one deal by deal
(North-South's points a deal, and North-South's less East-West's, the tournament's edge).

    python benchmarks/elyigit_calibration.py --deals 150 --seed 21 --opponents ismcts --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from nines.bots import make_player
from nines.bots.expert_elyigit import ElyigitBudget, ElyigitExpert
from nines.bots.expert_neuf import shared_solver
from nines.games.elyigit import Bid, ElyigitState
from nines.games.elyigit.options import SEATS, ElyigitOptions, left_of, side_of
from nines.games.tricks import parse_trump
from nines.solver import make_position

sys.path.insert(0, str(Path(__file__).parent))
from elyigit_loss_split import _deal, _mean_ci  # the same deals as the loss split, the same intervals


def seated(seed: int, index: int, opponents: str, expert_args: dict[str, Any]) -> tuple[ElyigitState, dict[str, Any]]:
    """Deal ``index`` of ``seed`` with the expert (with ``expert_args``) North-South against ``opponents``."""
    state = ElyigitState(ElyigitOptions(), 0, preset_deal=_deal(seed, index))
    players: dict[str, Any] = {}
    for i, seat in enumerate(SEATS):
        rng = random.Random(f"{seed * 1000 + index}:{seat}:{i}")
        if seat in ("N", "S"):
            kwargs = dict(expert_args)
            players[seat] = ElyigitExpert(rng, ElyigitBudget(**kwargs.pop("budget", {})), **kwargs)
        else:
            players[seat] = make_player(opponents, "elyigit", rng)
    return state, players


def _one(args: tuple[int, int, str, dict[str, Any]]) -> dict[str, Any]:
    index = args[1]
    state, players = seated(*args)
    first = state.deal
    hands = {seat: list(first.hands[seat]) for seat in SEATS}
    sure: dict[str, int] = {}
    bidders: set[str] = set()
    while first.phase != "done":
        before = len(state.deals)
        seat = state.acting_seat
        assert seat is not None
        decision = players[seat].decide(state.view(seat))
        if first.phase == "auction" and seat in ("N", "S") and isinstance(decision.action, Bid):
            sure[seat] = int(getattr(decision.reason, "params", {}).get("percent", -1))
        if first.phase == "auction" and isinstance(decision.action, Bid):
            bidders.add(seat)
        state.apply(decision.action, by=seat)
        if len(state.deals) > before and first.phase != "done":
            break
    result = first.result if first.phase == "done" else None
    if result is None or result["contract"] is None:
        return {"index": index, "side": None, "NS": 0, "EW": 0}
    contract = result["contract"]
    declarer = contract["declarer"]
    trump = None if contract["trump"] in (None, "NT") else parse_trump(contract["trump"])
    solved = shared_solver().value(make_position("elyigit", hands, trump, left_of(declarer)), side_of(declarer))
    side = side_of(declarer)
    contested = bool(bidders & {"N", "S"}) and bool(bidders & {"E", "W"})
    return {"index": index, "side": side, "bid": contract["bid"], "solved": solved, "sure": sure.get(declarer), "contested": contested,
            "made": result["score_change"][side] > 0, "NS": result["score_change"]["NS"], "EW": result["score_change"]["EW"]}


def parse_experiment(doc: str, argv: list[str] | None, deals: int, opponents: str) -> argparse.Namespace:
    """The options of an experiment seating the expert (a variant of it) North-South against ``--opponents``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponents", default=opponents, help="the East-West player (basic, ismcts, ...)")
    parser.add_argument("--expert-args", default="{}", help='JSON keyword arguments of ElyigitExpert, e.g. \'{"declarer_edge": [0.6, 0.1]}\'')
    parser.add_argument("--save", help="write every deal's figures to this JSON file")
    parser.add_argument("--compare", help="a file saved by --save (same seed and deals) to pair this run with")
    return parser.parse_args(argv)


def play_deals(one: Callable[[tuple[int, int, str, dict[str, Any]]], dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """``one`` over every deal of the experiment, on ``--workers`` processes."""
    jobs = [(args.seed, i, args.opponents, json.loads(args.expert_args)) for i in range(args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            return list(pool.map(one, jobs))
    return [one(job) for job in jobs]


def main(argv: list[str] | None = None) -> int:
    args = parse_experiment(__doc__, argv, deals=150, opponents="basic")
    rows = play_deals(_one, args)
    if args.save:
        Path(args.save).write_text(json.dumps(rows))
    print(f"{args.deals} deals of seed {args.seed}; expert {args.expert_args} (N-S) against {args.opponents}")
    for side, who in (("NS", "the expert declaring"), ("EW", f"{args.opponents} declaring")):
        print(f"  {who}: margin (solved tricks - bid), deals, made at the table")
        for margin in range(-3, 4):
            group = [r for r in rows if r["side"] == side and r["solved"] - r["bid"] == margin]
            if group:
                print(f"    {margin:+d}  {len(group):4}  {sum(r['made'] for r in group) / len(group):.2f}")
    ours = [r for r in rows if r["side"] == "NS" and r["sure"] is not None and r["sure"] >= 0]
    if ours:
        print(f"  the expert's own final bids: {len(ours)}; made in {sum(r['sure'] for r in ours) / len(ours):.0f}% of its "
              f"imagined deals (solved), made by the solver on the true deal {100 * sum(r['solved'] >= r['bid'] for r in ours) / len(ours):.0f}%, "
              f"made at the table {100 * sum(r['made'] for r in ours) / len(ours):.0f}%")
    print(f"  North-South's points a deal {_mean_ci([r['NS'] for r in rows], 3)}, "
          f"edge (NS - EW) {_mean_ci([r['NS'] - r['EW'] for r in rows], 3)}")
    if args.compare:
        before = {r["index"]: r for r in json.loads(Path(args.compare).read_text())}
        pairs = [(before[r["index"]], r) for r in rows if r["index"] in before]
        print(f"  paired with {args.compare} ({len(pairs)} deals, {sum(a['NS'] != b['NS'] for a, b in pairs)} changed), this run less that one:")
        print(f"    North-South's points {_mean_ci([b['NS'] - a['NS'] for a, b in pairs], 3)}, "
              f"edge {_mean_ci([(b['NS'] - b['EW']) - (a['NS'] - a['EW']) for a, b in pairs], 3)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
