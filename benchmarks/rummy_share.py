"""The rummy expert's edge over ``basic`` as a share of the oracle's, on the same duplicate deals (issue 20).

``nines tournament`` reports its figures only once every deal is played, which on a busy
machine can be hours away.  This script plays the very same matches (the same seed, the
same players, the ``capped`` preset, one seat for the player and ``basic``, or the player
``--others`` names, in the others)
one after another and saves each as it finishes, so that a run can be stopped, resumed,
and reported at any point: the first K matches saved give exactly the numbers of
``nines tournament rummy --players P,basic,... --deals N --seed S`` for the N they reach.

    PYTHONPATH=src python benchmarks/rummy_share.py play expert --seats 4 --seed 41 --deals 1000 --save /tmp/e4.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py play oracle --seats 4 --seed 41 --deals 1000 --save /tmp/o4.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py report /tmp/e4.pkl /tmp/o4.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py compare /tmp/e2.pkl /tmp/o2.pkl /tmp/h2.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py play expert --others ismcts --seed 41 --deals 1000 --save /tmp/ei.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py show /tmp/ei.pkl

``report`` prints both tables over the matches both files hold, and the share of the
oracle's edge that the first player's edge is, with a 95% interval (the delta method
over matches: the two edges are measured on the same deals, so their luck is shared).
``show`` prints one file's table (the tournament's, over the matches it holds).
``compare`` prints each file's edge over the matches all of them hold, and each one's
difference from the first file's, paired match by match.
"""

from __future__ import annotations

import argparse
import math
import pickle
from pathlib import Path
from typing import Any

from rich.console import Console

from nines.cli.commands.tournament import render
from nines.tournament import GameSetup, JobResult, RawResults, TournamentConfig, play_job, summarise
from nines.tournament.runner import distinct_deals, finished
from nines.tournament.schedule import jobs_for_match
from nines.tournament.stats import Z95, Estimate

PRESET = "capped"
"""What ``nines tournament rummy`` plays unless told otherwise."""


def _load(path: Path) -> tuple[dict[str, Any], list[list[JobResult]]]:
    """The run's settings and its matches, in order."""
    with path.open("rb") as f:
        header = pickle.load(f)
        matches: list[list[JobResult]] = []
        while True:
            try:
                matches.append(pickle.load(f))
            except EOFError:
                return header, matches


def play(player: str, seats: int, seed: int, deals: int, save: Path, others: str = "basic") -> None:
    lineup = (player,) + (others,) * (seats - 1)
    header = {"lineup": lineup, "seed": seed}
    if save.exists():
        saved, matches = _load(save)
        if saved != header:
            raise SystemExit(f"{save} holds {saved}, not {header}: give another --save")
    else:
        with save.open("wb") as f:
            pickle.dump(header, f)
        matches = []
    setup = GameSetup("rummy", PRESET, {"players": str(seats)})
    total = sum(distinct_deals(jobs) for jobs in matches)
    match = len(matches)
    while total < deals:
        jobs = [play_job(setup, seed, job) for job in jobs_for_match(seed, match, lineup)]
        with save.open("ab") as f:
            pickle.dump(jobs, f)
        total += distinct_deals(jobs)
        match += 1
        print(f"match {match}: {total} deals", flush=True)


def _raw(header: dict[str, Any], matches: list[list[JobResult]]) -> RawResults:
    lineup = tuple(header["lineup"])
    deals = max(1, sum(distinct_deals(jobs) for jobs in matches))
    setup = GameSetup("rummy", PRESET, {"players": str(len(lineup))})
    config = TournamentConfig(setup, lineup, deals, int(header["seed"]))
    kept = [jobs for jobs in matches if finished(jobs)]
    return RawResults(config, kept, [jobs[0].match for jobs in matches if not finished(jobs)])


def edges_by_match(raw: RawResults, player: str) -> dict[int, float]:
    """The player's edge over the others in each match: their mean penalty per hand less its own."""
    out: dict[int, float] = {}
    for jobs in raw.matches:
        mine = rest = 0.0
        n_mine = n_rest = 0
        for job in jobs:
            for deal in job.deals:
                for seat, name in zip(job.seats, job.seating, strict=True):
                    if name == player:
                        mine, n_mine = mine + deal[seat], n_mine + 1
                    else:
                        rest, n_rest = rest + deal[seat], n_rest + 1
        out[jobs[0].match] = rest / n_rest - mine / n_mine
    return out


def share(numerator: list[float], denominator: list[float]) -> Estimate:
    """``mean(numerator) / mean(denominator)`` over paired matches, with a 95% delta-method interval."""
    m = len(numerator)
    top, bottom = sum(numerator) / m, sum(denominator) / m
    ratio = top / bottom
    residuals = [(a - ratio * b) / bottom for a, b in zip(numerator, denominator, strict=True)]
    half = Z95 * math.sqrt(sum(r * r for r in residuals) / (m * (m - 1)))
    return Estimate(ratio, ratio - half, ratio + half, m)


def report(first: Path, second: Path) -> None:
    runs = [_load(first), _load(second)]
    common = min(len(matches) for _, matches in runs)
    console = Console(width=140)
    per_match = []
    for header, matches in runs:
        raw = _raw(header, matches[:common])
        console.print(render(summarise(raw)))
        per_match.append(edges_by_match(raw, str(header["lineup"][0])))
    both = sorted(set(per_match[0]) & set(per_match[1]))
    if len(both) < 2:
        raise SystemExit("fewer than two matches in both files: nothing to compare yet")
    names = [str(header["lineup"][0]) for header, _ in runs]
    estimate = share([per_match[0][m] for m in both], [per_match[1][m] for m in both])
    console.print(f"{names[0]}'s edge as a share of {names[1]}'s, over the {len(both)} matches both finished: "
                  f"{100 * estimate.mean:.0f}% [{100 * estimate.low:.0f}%, {100 * estimate.high:.0f}%]")


def show(path: Path) -> None:
    header, matches = _load(path)
    Console(width=140).print(render(summarise(_raw(header, matches))))


def mean_estimate(values: list[float]) -> Estimate:
    """The mean of per-match values with its 95% interval."""
    m = len(values)
    mean = sum(values) / m
    half = Z95 * math.sqrt(sum((v - mean) ** 2 for v in values) / (m - 1) / m)
    return Estimate(mean, mean - half, mean + half, m)


def compare(paths: list[Path]) -> None:
    edges = []
    for path in paths:
        header, matches = _load(path)
        edges.append(edges_by_match(_raw(header, matches), str(header["lineup"][0])))
    common = sorted(set.intersection(*(set(e) for e in edges)))
    if len(common) < 2:
        raise SystemExit("fewer than two matches in every file: nothing to compare yet")
    deals = sum(distinct_deals(jobs) for jobs in _load(paths[0])[1] if jobs[0].match in set(common))
    print(f"over the {len(common)} matches ({deals} deals) every file holds:")
    for i, (path, edge) in enumerate(zip(paths, edges, strict=True)):
        own = mean_estimate([edge[m] for m in common])
        line = f"{path}: edge over the others {own.mean:+.2f} [{own.low:+.2f}, {own.high:+.2f}]"
        if i > 0:
            diff = mean_estimate([edge[m] - edges[0][m] for m in common])
            line += f", against the first {diff.mean:+.2f} [{diff.low:+.2f}, {diff.high:+.2f}]"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_args = commands.add_parser("play", help="play (or go on playing) one player against basics, saving each match")
    play_args.add_argument("player", help="expert, oracle, ismcts, planner, ...")
    play_args.add_argument("--seats", type=int, default=2)
    play_args.add_argument("--seed", type=int, default=41)
    play_args.add_argument("--deals", type=int, default=1000)
    play_args.add_argument("--save", type=Path, required=True)
    play_args.add_argument("--others", default="basic", help="the player in every other seat (default basic)")
    report_args = commands.add_parser("report", help="both tables and the share of the second player's edge")
    report_args.add_argument("first", type=Path)
    report_args.add_argument("second", type=Path)
    show_args = commands.add_parser("show", help="one file's table, over the matches it holds")
    show_args.add_argument("file", type=Path)
    compare_args = commands.add_parser("compare", help="each file's edge, and its difference from the first's, match by match")
    compare_args.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "play":
        play(args.player, args.seats, args.seed, args.deals, args.save, args.others)
    elif args.command == "show":
        show(args.file)
    elif args.command == "compare":
        compare(args.files)
    else:
        report(args.first, args.second)


if __name__ == "__main__":
    main()
