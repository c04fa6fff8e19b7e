"""The Elyigit expert's auction alone, scored by the solver: what the contract it reaches is worth.

For each deal (shuffled from ``--seed`` as in ``elyigit_loss_split.py``, the dealer turning
round the table) the expert pair (with ``--expert-args``) sits North-South against two
``--opponents`` and the auction is called, the declarer names trumps, and no card is
played: the contract is solved exactly on the true deal and scored as if both sides
played perfectly (made: the declarers score the bid; defeated: the defenders score the
bid and one more).  A second figure scores the contract at the table's odds instead:
declarers who cannot see the cards, against defenders who cannot either, make some
contracts the solver calls short and fail some it calls made; ``TABLE_ODDS`` holds how
often, by the solver's margin, as ``elyigit_calibration.py`` counted them for the expert
declaring and for its opponents declaring.  With no card play there is no play's luck in
either figure, so two variants of the auction compare on far fewer deals than a tournament
needs: ``--save`` writes every deal's figures, ``--compare FILE`` pairs this run with a
saved one deal by deal.

    python benchmarks/elyigit_auction_dd.py --deals 300 --seed 21 --opponents ismcts --workers 2
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from nines.bots.expert_neuf import shared_solver
from nines.games.elyigit.options import SEATS, left_of, side_of
from nines.solver import make_position

sys.path.insert(0, str(Path(__file__).parent))
from elyigit_calibration import parse_experiment, play_deals, seated  # the same deals, seats and options
from elyigit_loss_split import _mean_ci  # the same intervals

TABLE_ODDS: dict[str, tuple[dict[int, float], dict[int, float]]] = {
    # opponents: (the expert declaring, the opponents declaring): how often a contract the solver gives
    # ``margin`` tricks over the bid (missing margins: made when >= 0, defeated when < 0) is made at the table
    "ismcts": ({-2: 0.0, -1: 0.39}, {-1: 0.25, 0: 0.75}),
    "basic": ({-2: 0.11, -1: 0.9}, {-1: 0.14, 0: 0.7}),
}


def at_table_odds(row: dict[str, Any], opponents: str) -> float:
    """North-South's expected points for the contract of ``row`` at the table's odds (``TABLE_ODDS``)."""
    side, *rest = row["contract"].split()
    if side == "--":
        return 0.0
    bid = int(rest[0])
    margin = row["solved"] - bid
    ours, theirs = TABLE_ODDS.get(opponents, TABLE_ODDS["ismcts"])
    made = (ours if side == "NS" else theirs).get(margin, 1.0 if margin >= 0 else 0.0)
    value = made * bid - (1 - made) * (bid + 1)
    return value if side == "NS" else -value


def _one(args: tuple[int, int, str, dict[str, Any]]) -> dict[str, Any]:
    state, players = seated(*args)
    index = args[1]
    first = state.deal
    hands = {seat: list(first.hands[seat]) for seat in SEATS}
    calls: list[str] = []
    times: list[float] = []
    while first.phase in ("auction", "trump"):
        before = len(state.deals)
        mover = state.acting_seat
        assert mover is not None
        start = time.thread_time()
        decision = players[mover].decide(state.view(mover))
        if mover in ("N", "S"):
            times.append(time.thread_time() - start)
        calls.append(f"{mover} {decision.action}")
        state.apply(decision.action, by=mover)
        if len(state.deals) > before:
            return {"index": index, "NS": 0, "contract": "-- thrown in", "calls": calls, "times": times}
    contract = first.contract
    assert contract is not None
    declarer, bid, trump = contract.declarer, contract.bid, contract.trump
    trump_text = "NT" if trump is None else trump.value
    tricks = shared_solver().value(make_position("elyigit", hands, trump, left_of(declarer)), side_of(declarer))
    score = bid if tricks >= bid else -(bid + 1)
    ns = score if side_of(declarer) == "NS" else -score
    return {"index": index, "NS": ns, "contract": f"{side_of(declarer)} {bid} {trump_text}", "solved": tricks,
            "calls": calls, "times": times}


def main(argv: list[str] | None = None) -> int:
    args = parse_experiment(__doc__, argv, deals=300, opponents="ismcts")
    rows = play_deals(_one, args)
    if args.save:
        with open(args.save, "w") as out:
            json.dump([{k: v for k, v in r.items() if k != "times"} for r in rows], out)
    print(f"{args.deals} deals of seed {args.seed}; the expert (N-S, {args.expert_args}) against {args.opponents}: "
          "the contract reached, solved on the true deal")
    print(f"  North-South's points a deal   {_mean_ci([float(r['NS']) for r in rows])} solved, "
          f"{_mean_ci([at_table_odds(r, args.opponents) for r in rows])} at the table's odds")
    sides: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        sides.setdefault(r["contract"][:2], []).append(r)
    for side in sorted(sides):
        group = sides[side]
        made = sum(1 for r in group if side != "--" and ((r["NS"] > 0) == (side == "NS")))
        print(f"    {side} declaring: {len(group)} deals, made {made}, North-South {sum(r['NS'] for r in group) / len(rows):+.2f} a deal")
    if args.compare:
        with open(args.compare) as saved:
            before = {r["index"]: r for r in json.load(saved)}
        paired = [(r, before[r["index"]]) for r in rows if r["index"] in before]
        changed = sum(1 for r, b in paired if r["contract"] != b["contract"])
        solved = [r["NS"] - b["NS"] for r, b in paired]
        odds = [at_table_odds(r, args.opponents) - at_table_odds(b, args.opponents) for r, b in paired]
        print(f"  paired with {args.compare} ({len(paired)} deals, {changed} with another contract): "
              f"this run less that one {_mean_ci(solved)} solved, {_mean_ci(odds)} at the table's odds")
    times = sorted(t for r in rows for t in r["times"])
    if times:
        print(f"  the expert's auction and trump decisions: {len(times)}, median {1000 * times[len(times) // 2]:.1f} ms, "
              f"worst {1000 * times[-1]:.0f} ms (CPU, one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
