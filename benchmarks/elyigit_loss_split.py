"""Where the Elyigit expert loses to the oracle: the auction or the card play.

For each deal (shuffled from ``--seed``, the dealer turning round the table) the pair under
test (``--player``, default ``expert``) sits North-South against two ``basic`` players,
and so does the ``oracle`` (which sees every card).  Each deal is played four ways:

* ``EE``: the expert's auction (its contract and trump), the expert's card play;
* ``EO``: the expert's auction, then the oracle playing North-South's cards;
* ``OE``: the oracle's auction, then the expert playing the cards;
* ``OO``: the oracle's auction and card play.

East-West are the same basic players throughout (in the auction they answer whatever
North-South bid).  The figures are North-South's points a deal.  The loss ``OO - EE``
splits two ways, each exact:

* auction ``OO - EO`` (both contracts played by the oracle) plus play ``EO - EE``
  (the expert's contract, played by the oracle and by the expert);
* auction ``OE - EE`` (both contracts played by the expert) plus play ``OO - OE``.

Every difference is paired on the same deals; intervals are 95% (deals independent).
The expert's decision times (CPU time of the deciding thread) are printed too.

    python benchmarks/elyigit_loss_split.py --deals 200 --seed 11 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from nines.bots import make_player
from nines.cards import deck_36, shuffled
from nines.games.elyigit import ElyigitState
from nines.games.elyigit.options import SEATS, ElyigitOptions, side_of
from nines.games.elyigit.state import PresetDeal
from nines.tournament.oracle_elyigit import ElyigitOracle

OURS = ("N", "S")
EXPERT_ARGS: dict[str, Any] = {}
"""Keyword arguments for the expert under test (``--expert-args``), to compare variants."""


def _deal(seed: int, index: int) -> PresetDeal:
    rng = random.Random(f"elyigit-loss-split:{seed}:{index}")
    deck = shuffled(deck_36(), rng)
    return PresetDeal(SEATS[index % 4], {seat: deck[9 * i: 9 * i + 9] for i, seat in enumerate(SEATS)})


def _run(deal: PresetDeal, ours: str, calls: list[Any] | None, seed: int, times: list[float],
         auction_only: bool = False) -> tuple[list[Any], int, str]:
    """Play one deal: ``calls`` (auction and trump) replayed if given, else chosen by ``ours``.

    Returns the auction and trump actions, North-South's points, and the contract as text.
    """
    state = ElyigitState(ElyigitOptions(), 0, preset_deal=deal)
    players: dict[str, Any] = {}
    for i, seat in enumerate(SEATS):
        rng = random.Random(f"{seed}:{seat}:{i}")
        if seat in OURS and ours == "oracle":
            players[seat] = ElyigitOracle()
        elif seat in OURS and EXPERT_ARGS:
            from nines.bots.expert_elyigit import ElyigitBudget, ElyigitExpert

            kwargs = dict(EXPERT_ARGS)
            budget = ElyigitBudget(**kwargs.pop("budget", {}))
            players[seat] = ElyigitExpert(rng, budget, **kwargs)
        elif seat in OURS:
            players[seat] = make_player(ours, "elyigit", rng)
        else:
            players[seat] = make_player("basic", "elyigit", rng)
    replay = list(calls) if calls is not None else None
    bidding: list[Any] = []
    first = state.deal
    while first.phase != "done":
        if auction_only and first.phase == "play":
            return bidding, 0, ""
        if first.phase in ("auction", "trump") and replay is not None:
            if not replay:  # thrown in: the replayed auction ended with four passes
                break
            action = replay.pop(0)
        else:
            seat = state.acting_seat
            assert seat is not None
            player = players[seat]
            start = time.thread_time()
            if isinstance(player, ElyigitOracle):
                decision = player.decide_state(state, seat)
            else:
                decision = player.decide(state.view(seat))
            if side_of(seat) == "NS" and not isinstance(player, ElyigitOracle):
                times.append(time.thread_time() - start)
            action = decision.action
        if first.phase in ("auction", "trump"):
            bidding.append(action)
        before = len(state.deals)
        state.apply(action, by=state.acting_seat)
        if len(state.deals) > before and first.phase != "done":
            break  # thrown in (nobody bid): a new deal started
    if first.phase != "done":
        return bidding, 0, "-- thrown in"
    result = first.result
    assert result is not None
    contract = result["contract"]
    if contract is None:
        return bidding, 0, "-- thrown in"
    return bidding, int(result["score_change"]["NS"]), f"{side_of(contract['declarer'])} {contract['bid']} {contract['trump']}"


def _one(args: tuple[int, int, str, dict[str, Any], str]) -> dict[str, Any]:
    seed, index, player, expert_args, mode = args
    EXPERT_ARGS.clear()
    EXPERT_ARGS.update(expert_args)
    deal = _deal(seed, index)
    times: list[float] = []
    if mode == "auction":  # the expert's auction, played by the oracle (no card play by the expert: quick)
        e_calls, _, _ = _run(deal, player, None, seed * 1000 + index, times, auction_only=True)
        _, eo, e_contract = _run(deal, "oracle", e_calls, seed * 1000 + index, [])
        _, oo, o_contract = _run(deal, "oracle", None, seed * 1000 + index, [])
        return {"index": index, "EO": eo, "OO": oo, "e_contract": e_contract, "o_contract": o_contract, "times": times}
    e_calls, ee, e_contract = _run(deal, player, None, seed * 1000 + index, times)
    o_calls, oo, o_contract = _run(deal, "oracle", None, seed * 1000 + index, [])
    if mode == "quick":  # the expert's own auction and play only, against the oracle's
        return {"index": index, "EE": ee, "OO": oo, "e_contract": e_contract, "o_contract": o_contract, "times": times}
    _, eo, _ = _run(deal, "oracle", e_calls, seed * 1000 + index, [])
    _, oe, _ = _run(deal, player, o_calls, seed * 1000 + index, times)
    return {"index": index, "EE": ee, "EO": eo, "OE": oe, "OO": oo,
            "e_contract": e_contract, "o_contract": o_contract, "times": times}


def _mean_ci(values: list[float], digits: int = 2) -> str:
    """The mean and its 95% interval (deals independent), signed, to ``digits`` places."""
    n = len(values)
    mean = sum(values) / n
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return f"{mean:+.{digits}f} [{mean - half:+.{digits}f}, {mean + half:+.{digits}f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--player", default="expert", help="the player under test (any player name)")
    parser.add_argument("--expert-args", default="{}",
                        help='JSON keyword arguments of ElyigitExpert, e.g. \'{"budget": {"play_worlds": 100}}\'')
    parser.add_argument("--mode", choices=("split", "quick", "auction"), default="split",
                        help="split: all four; quick: EE and OO only (the hidden-card cost); auction: EO and OO only "
                             "(the auction's loss, the expert deciding only the auction)")
    parser.add_argument("--save", help="write every deal's figures to this JSON file (to pair runs deal by deal)")
    args = parser.parse_args(argv)
    jobs = [(args.seed, i, args.player, json.loads(args.expert_args), args.mode) for i in range(args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = []
            for row in pool.map(_one, jobs):
                rows.append(row)
                if len(rows) % 10 == 0:
                    print(f"{len(rows)} deals", file=sys.stderr, flush=True)
    else:
        rows = [_one(job) for job in jobs]
    if args.save:
        with open(args.save, "w") as out:
            json.dump([{k: v for k, v in r.items() if k != "times"} for r in rows], out)
    keys = {"quick": ("EE", "OO"), "auction": ("EO", "OO")}.get(args.mode, ("EE", "EO", "OE", "OO"))
    col = {k: [float(r[k]) for r in rows] for k in keys}
    diff = lambda a, b: [x - y for x, y in zip(col[a], col[b], strict=True)]  # noqa: E731
    print(f"{args.deals} deals of seed {args.seed}; {args.player} (N-S) against basic, North-South's points a deal")
    labels = {"EE": f"{args.player} auction, {args.player} play", "EO": f"{args.player} auction, oracle play",
              "OE": f"oracle auction, {args.player} play", "OO": "oracle auction, oracle play"}
    for key in keys:
        print(f"  {key} {labels[key]:<40} {_mean_ci(col[key])}")
    if "EE" in keys:
        print(f"  loss OO-EE (hidden cards)                   {_mean_ci(diff('OO', 'EE'))}")
    if args.mode == "auction":
        print(f"  auction's loss OO-EO                        {_mean_ci(diff('OO', 'EO'))}")
    if args.mode == "split":
        print(f"  split 1: auction OO-EO {_mean_ci(diff('OO', 'EO'))}   play EO-EE {_mean_ci(diff('EO', 'EE'))}")
        print(f"  split 2: auction OE-EE {_mean_ci(diff('OE', 'EE'))}   play OO-OE {_mean_ci(diff('OO', 'OE'))}")
    print(f"  by who declared (expert's auction / oracle's auction): deals, {', '.join(keys)}")
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(f"{r['e_contract'][:2]} / {r['o_contract'][:2]}", []).append(r)
    for key in sorted(groups):
        g = groups[key]
        means = "  ".join(f"{sum(r[k] for r in g) / len(g):+.2f}" for k in keys)
        print(f"    {key:<9} {len(g):4}   {means}")
    same = sum(r["e_contract"] == r["o_contract"] for r in rows)
    print(f"  same contract (declarer, bid, trump) as the oracle: {same} of {len(rows)} deals")
    times = sorted(t for r in rows for t in r["times"])
    if times:
        print(f"  {args.player} decisions: {len(times)}, median {1000 * times[len(times) // 2]:.1f} ms, "
              f"99th percentile {1000 * times[int(0.99 * (len(times) - 1))]:.0f} ms, worst {1000 * times[-1]:.0f} ms (CPU, one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
