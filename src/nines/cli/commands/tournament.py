"""``nines tournament``: duplicate matches between computer players, with 95% intervals."""

from __future__ import annotations

import json
import sys
import time

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ...bots import PLAYER_FACTORIES, players_for
from ...tournament import GameSetup, Summary, TournamentConfig, run, seatings, summarise
from ...tournament.oracle import ORACLE_FACTORIES
from ..options import build_options, game_spec, parse_overrides


def register(app: typer.Typer) -> None:
    app.command()(tournament)


def tournament(
    game: str = typer.Argument(..., help="neuf, elyigit or rummy"),
    players: str = typer.Option(
        ..., "--players", help="Comma-separated player names, one per seat (a shorter list is repeated to fill the seats)."
    ),
    deals: int = typer.Option(200, "--deals", "-n", help="Deals (rummy: hands) to play, at least."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed: the same seed and players give the same numbers."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes (the numbers do not depend on it)."),
    preset: str | None = typer.Option(
        None, "--preset", "-p", help="A named rules preset (rummy: 'capped' unless given, so that every hand ends)."
    ),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="Override one option: name=value."),
    json_out: bool = typer.Option(False, "--json", help="Print the results as JSON instead of a table."),
) -> None:
    """Play duplicate matches (the same deals, players rotated through the seats) and compare the players.

    Each player's mean result per deal and its edge over the others come with 95%
    intervals; match wins and thinking time per decision are reported too.
    """
    spec = game_spec(game)
    names = [n.strip() for n in players.split(",") if n.strip()]
    known = [*players_for(spec.id), *ORACLE_FACTORIES]
    unknown = [n for n in names if n not in known]
    if unknown:
        what = "does not play" if unknown[0] in PLAYER_FACTORIES else "is not a player of"
        raise typer.BadParameter(
            f"{unknown[0]!r} {what} {spec.id}; the players for {spec.id} are: {', '.join(known)}", param_hint="--players"
        )
    overrides = parse_overrides(option)
    if spec.id == "rummy" and preset is None:
        preset = "capped"  # tournaments keep the caps that guarantee a hand ends
    if spec.id == "rummy" and "players" not in overrides:
        overrides["players"] = str(len(names))
    options = build_options(spec, preset, [f"{k}={v}" for k, v in overrides.items()])
    seat_count = len(options.seats)
    if not names or seat_count % len(names):
        raise typer.BadParameter(
            f"{spec.title} here has {seat_count} seats ({' '.join(options.seats)}): give one player per seat, "
            "or a list that repeats to fill them", param_hint="--players",
        )
    lineup = tuple(names * (seat_count // len(names)))
    if workers < 1:
        raise typer.BadParameter("at least one worker", param_hint="--workers")
    if deals < 1:
        raise typer.BadParameter("at least one deal", param_hint="--deals")
    config = TournamentConfig(GameSetup(spec.id, preset, overrides), lineup, deals, seed, workers)
    err = Console(stderr=True)
    # every seating of a match plays its deals, and the last matches end past the asked count: the bar counts the
    # deals at least to be played and grows while a match is still going past it (it read "31/30 deals")
    total = deals * len(seatings(lineup))
    if err.is_terminal:
        with Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TimeRemainingColumn(), console=err, transient=json_out,
        ) as bar:
            task = bar.add_task(f"{spec.id} deals", total=total)

            def advance(n: int) -> None:
                bar.advance(task, n)
                done = int(bar.tasks[0].completed)
                if done >= total:
                    bar.update(task, total=done + 1)  # the match under way goes on

            raw = run(config, progress=advance)
            done = int(bar.tasks[0].completed)
            bar.update(task, total=done, completed=done)
    else:
        # standard error is a file or a pipe (with --json, standard output usually is too): plain lines, so a long
        # run still shows that it moves (it showed nothing at all)
        lines = ProgressLines(f"{spec.id} deals", total)
        raw = run(config, progress=lines.advance)
        lines.finish()
    summary = summarise(raw)
    if json_out:
        document = summary.to_dict()
        document["command"] = _command_line(spec.id, players, deals, seed, workers, preset, option)
        document["options"] = dict(overrides)
        sys.stdout.write(json.dumps(document, indent=1) + "\n")
        return
    Console().print(render(summary))


class ProgressLines:
    """Progress as plain lines on standard error: the first deal, then every tenth of the way or every 10 s, and
    the end. The count is of deals played, against the least that will be (matches end past it)."""

    def __init__(self, what: str, total: int, every_s: float = 10.0) -> None:
        self.what = what
        self.total = total
        self.every_s = every_s
        self.done = 0
        self.started = time.monotonic()
        self.said_at = self.started
        self.said_step = -1

    def advance(self, n: int) -> None:
        self.done += n
        step = min(10, self.done * 10 // max(1, self.total))
        now = time.monotonic()
        if self.done == n or step > self.said_step or now - self.said_at >= self.every_s:
            self.said_step = step
            self.said_at = now
            self._say(f"{self.done} of at least {self.total}")

    def finish(self) -> None:
        self._say(f"{self.done} played, done")

    def _say(self, count: str) -> None:
        elapsed = int(time.monotonic() - self.started)
        sys.stderr.write(f"{self.what}: {count} ({elapsed // 60}:{elapsed % 60:02d} elapsed)\n")
        sys.stderr.flush()


def _command_line(game: str, players: str, deals: int, seed: int, workers: int, preset: str | None, option: list[str] | None) -> str:
    parts = ["nines", "tournament", game, "--players", players, "--deals", str(deals), "--seed", str(seed), "--workers", str(workers)]
    if preset:
        parts += ["--preset", preset]
    for pair in option or []:
        parts += ["-o", pair]
    return " ".join(parts)


def render(summary: Summary) -> Table:
    metric = summary.metric
    direction = "lower is better" if metric.lower_is_better else "higher is better"
    table = Table(
        title=(
            f"{summary.game}: {summary.deals} {metric.deal_word}s x {summary.seatings} seatings "
            f"({summary.deal_plays} played, {summary.matches} matches), seed {summary.seed}"
            + (f"; {summary.abandoned} matches abandoned unfinished" if summary.abandoned else "")
        ),
        caption=(
            f"mean: {metric.name}, {direction}; edge: how much better than the others per {metric.deal_word} "
            "(+ is better); ± is the 95% interval; time is CPU time on one core"
        ),
    )
    table.add_column("player")
    table.add_column("seats", justify="right")
    table.add_column(f"mean per {metric.deal_word}", justify="right")
    table.add_column("edge over the others", justify="right")
    table.add_column("match wins (fair share)", justify="right")
    table.add_column("decision ms (median / worst)", justify="right")
    for p in summary.players:
        edge = "-" if p.edge is None else f"{p.edge.mean:+.3f} ±{p.edge.half_width:.3f}"
        table.add_row(
            p.name,
            str(p.seats),
            f"{p.mean.mean:+.3f} ±{p.mean.half_width:.3f}",
            edge,
            f"{100 * p.wins.mean:.1f}% ±{100 * p.wins.half_width:.1f} ({100 * p.fair_share:.0f}%)",
            f"{1000 * p.time_median:.1f} / {1000 * p.time_worst:.0f}",
        )
    return table

