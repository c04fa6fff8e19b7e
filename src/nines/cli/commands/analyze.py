"""``nines analyze``: solve many random deals exactly and report what predicts the tricks.

``nines analyze elyigit`` tests seed 003's claim about voids, nines and long suits;
``nines analyze neuf`` measures Le Neuf's exchange and what trumps do to the tricks.
Both write a report folder, resume an interrupted run from it, and run on local
processes (``--workers``) or a Ray cluster (``--ray``) with the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from ...analysis.defaults import DEFAULT_CHUNK, DEFAULT_DEALS, TRUMP_CYCLE

if TYPE_CHECKING:  # the analysis (numpy, polars, matplotlib) loads only when a command runs
    from ...analysis import ElyigitAnalysis, LocalExecutor, Outcome, RayExecutor

console = Console()

analyze_app = typer.Typer(
    help="Solve many random deals exactly and analyse them: features, models, verdicts, a report folder.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(analyze_app, name="analyze")


SeedOpt = typer.Option(1, "--seed", "-s", help="Seed: deal i depends only on the seed and i.")
WorkersOpt = typer.Option(
    None, "--workers", "-w", help="Local worker processes (default: one per core); with --ray local, Ray's CPUs."
)
RayOpt = typer.Option(
    None, "--ray", help="Run on Ray: 'local' starts an instance here; or a cluster address ('auto', 'ray://host:10001')."
)
OutOpt = typer.Option(None, "--out", "-o", help="Report folder (default out/analysis/<game>-seed<seed>); re-run to resume.")
ProgressOpt = typer.Option(True, "--progress/--no-progress", help="Show a progress bar with the time left.")


def _executor(workers: int | None, ray: str | None) -> LocalExecutor | RayExecutor:
    from ...analysis import make_executor

    if workers is not None and workers < 1:
        raise typer.BadParameter("at least one worker", param_hint="--workers")
    if ray and ray != "local" and workers is not None:
        raise typer.BadParameter("a Ray cluster has its own CPUs: --workers goes with --ray local only")
    try:
        return make_executor(workers, ray)
    except RuntimeError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(1) from None


def _command(game: str, deals: int, seed: int, chunk_size: int, extra: str = "") -> str:
    text = f"nines analyze {game} --deals {deals} --seed {seed}"
    if chunk_size != DEFAULT_CHUNK[game]:
        text += f" --chunk-size {chunk_size}"
    return text + extra


def _run(call: Callable[[], Outcome], out: Path) -> Outcome:
    from ...analysis import RunFolderError

    try:
        return call()
    except RunFolderError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print(f"[yellow]stopped; the finished chunks are in {out}: run the same command again to resume[/yellow]")
        raise typer.Exit(130) from None


def _show_elyigit(analysis: ElyigitAnalysis) -> None:
    from ...analysis.elyigit_report import CLAIMS

    table = Table(title="Seed 003's claim, on the exact tricks of the declaring side")
    table.add_column("claim")
    table.add_column("all four trumps")
    table.add_column("card-sense trump")
    colour = {"supported": "green", "not supported": "red", "unclear": "yellow"}
    every, sense = analysis.view("all"), analysis.view("card_sense")
    for k, claim in enumerate(CLAIMS):
        a, s = every.verdicts[k], sense.verdicts[k]
        table.add_row(claim, f"[{colour[a.status]}]{a.status}[/]", f"[{colour[s.status]}]{s.status}[/]")
    console.print(table)


@analyze_app.command("elyigit")
def elyigit(
    deals: int = typer.Option(DEFAULT_DEALS["elyigit"], "--deals", "-n", help="Random deals to solve (each for all four trumps)."),
    seed: int = SeedOpt,
    workers: int | None = WorkersOpt,
    ray: str | None = RayOpt,
    out: Path | None = OutOpt,
    chunk_size: int = typer.Option(DEFAULT_CHUNK["elyigit"], "--chunk-size", help="Deals per chunk (the unit of resuming)."),
    progress: bool = ProgressOpt,
) -> None:
    """Elyigit's Nines: what the declarer's hand is worth in tricks (N declares, S dummy, E leads).

    Every deal is solved exactly for each trump suit; the declarer's voids, singletons, nines,
    eights, sevens, sixes, trumps and longest side suit (and the dummy's, apart) are valued in
    tricks with 95% intervals, and seed 003's claim gets a verdict.
    """
    from ...analysis import ElyigitAnalysis, analyze_elyigit, default_out

    if deals < 1:
        raise typer.BadParameter("at least one deal", param_hint="--deals")
    folder = out or default_out("elyigit", seed)
    executor = _executor(workers, ray)
    try:
        outcome = _run(
            lambda: analyze_elyigit(
                deals, seed, folder, executor, chunk_size=chunk_size, progress=progress, console=console,
                command=_command("elyigit", deals, seed, chunk_size),
            ),
            folder,
        )
    finally:
        executor.close()
    console.print(outcome.stats.describe())
    assert isinstance(outcome.analysis, ElyigitAnalysis)
    _show_elyigit(outcome.analysis)
    console.print(f"report: {folder / 'summary.md'}")


@analyze_app.command("neuf")
def neuf(
    deals: int = typer.Option(DEFAULT_DEALS["neuf"], "--deals", "-n", help="Random deals to solve (four solves per trump)."),
    seed: int = SeedOpt,
    trumps: str = typer.Option(",".join(TRUMP_CYCLE), "--trumps", help="Trumps to solve, comma-separated (S H D C NT)."),
    workers: int | None = WorkersOpt,
    ray: str | None = RayOpt,
    out: Path | None = OutOpt,
    chunk_size: int = typer.Option(DEFAULT_CHUNK["neuf"], "--chunk-size", help="Deals per chunk (the unit of resuming)."),
    progress: bool = ProgressOpt,
) -> None:
    """Le Neuf: what the exchange gains (S, left of dealer, own hand against the spare), and
    what trumps against no trumps do to the spread of tricks; exact paranoid values."""
    from ...analysis import NeufAnalysis, analyze_neuf, default_out
    from ...analysis.neuf import parse_trumps
    from ...analysis.neuf_report import statements

    if deals < 1:
        raise typer.BadParameter("at least one deal", param_hint="--deals")
    try:
        codes = parse_trumps(trumps)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--trumps") from None
    folder = out or default_out("neuf", seed)
    executor = _executor(workers, ray)
    extra = "" if codes == TRUMP_CYCLE else f" --trumps {','.join(codes)}"
    try:
        outcome = _run(
            lambda: analyze_neuf(
                deals, seed, folder, executor, trumps=codes, chunk_size=chunk_size, progress=progress,
                console=console, command=_command("neuf", deals, seed, chunk_size, extra),
            ),
            folder,
        )
    finally:
        executor.close()
    console.print(outcome.stats.describe())
    assert isinstance(outcome.analysis, NeufAnalysis)
    for line in statements(outcome.analysis):
        console.print(line.removeprefix("- ").replace("**", ""))
    console.print(f"report: {folder / 'summary.md'}")
