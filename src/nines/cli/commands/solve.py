"""``nines solve``: the exact result of a deal or an ending, every remaining trick played out.

    nines solve elyigit --deal "N:98.A75.2.643 ..." --trump H --leader N --json
    {"tricks": {"NS": 5, "EW": 4}}

Le Neuf takes three hands (``S:...``; each player's paranoid value) or four (``N:...``;
partnerships, or ``--form individual``).  ``--played`` gives the cards already on the
table in the current trick, from the leader on; ``--scores`` adds what each legal card of
the seat to play is worth.  Bad input is one line on standard error and exit code 2.
``--max-nodes`` bounds the search (a few random four-handed deals take minutes); a solve
that reaches the bound says so on standard error and exits with code 3.
"""

from __future__ import annotations

import json
import sys

import typer
from rich.console import Console
from rich.table import Table

from ...solver import DEFAULT_TABLE_MB, Solver, SolveResult, SolverInputError, SolverNodeLimit, position_from_deal

EXIT_BAD_INPUT = 2
EXIT_GAVE_UP = 3


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/red] {message}")
    raise typer.Exit(code)


def _render(result: SolveResult, console: Console) -> None:
    position = result.position
    trump = "no trumps" if position.trump is None else f"{position.trump.name.lower()} trumps"
    title = f"{position.game} ({position.form}), {trump}, {position.leader} leads"
    if position.played:
        title += ", on the table: " + " ".join(card.code for card in position.played)
    console.print(f"[bold]{title}[/bold]")
    console.print(position.deal_text())
    paranoid = position.form != "partners"
    console.print(f"{position.tricks_left} trick(s) to play")
    table = Table()
    table.add_column("seat" if paranoid else "side")
    table.add_column("tricks", justify="right")
    for side, tricks in result.tricks.items():
        table.add_row(side, str(tricks))
    console.print(table)
    if paranoid:
        console.print("each seat's most tricks when all the others play together against it")
    if result.scores is not None:
        mover = position.to_play
        whose = mover if paranoid else position.side_of(mover)
        console.print(f"{mover} to play: tricks for {whose} after each card")
        cards = Table()
        cards.add_column("card")
        cards.add_column("tricks", justify="right")
        best = max(result.scores.values())
        for card, value in result.scores.items():
            mark = "[green]" if value == best else ""
            cards.add_row(f"{mark}{card.code}", f"{mark}{value}")
        console.print(cards)
    console.print(f"[dim]{result.nodes:,} nodes, {result.seconds * 1000:.1f} ms[/dim]")


def register(app: typer.Typer) -> None:
    @app.command()
    def solve(
        game: str = typer.Argument(..., help="elyigit or neuf"),
        deal: str = typer.Option(
            ..., "--deal", "-d", help='The hands, PBN style: "N:<hand> <hand> <hand> <hand>" (Le Neuf three-handed: "S:..." with 3 hands).'
        ),
        trump: str = typer.Option(..., "--trump", "-t", help="S, H, D, C, or NT for no trumps."),
        leader: str = typer.Option(..., "--leader", "-l", help="The seat that leads (or led) the current trick."),
        played: str = typer.Option("", "--played", help='Cards already played to the current trick, in order from the leader: "9H 7H".'),
        form: str | None = typer.Option(None, "--form", help="Le Neuf with four hands: partners (default) or individual."),
        player: str | None = typer.Option(None, "--player", help="Paranoid forms: only this seat's value."),
        scores: bool = typer.Option(False, "--scores", help="Also give the tricks each legal card of the seat to play leads to."),
        json_out: bool = typer.Option(False, "--json", help='Print {"tricks": {...}} (and "scores") as JSON.'),
        table_mb: float = typer.Option(DEFAULT_TABLE_MB, "--table-mb", help="Transposition table limit in megabytes."),
        max_nodes: int | None = typer.Option(
            None, "--max-nodes", help="Give up (exit code 3) past this many search nodes, about 9 million a second."
        ),
    ) -> None:
        """Solve a deal or an ending exactly (perfect information, every trick played out)."""
        try:
            position = position_from_deal(game, deal, trump, leader, played, form=form)
            result = Solver(table_mb).solve(position, player=player, scores=scores, max_nodes=max_nodes)
        except SolverInputError as error:
            _fail(str(error))
            return
        except SolverNodeLimit as error:
            _fail(f"{error}: no answer; a larger --max-nodes, or none, lets the search finish", EXIT_GAVE_UP)
            return
        if json_out:
            sys.stdout.write(json.dumps(result.to_json()) + "\n")
        else:
            _render(result, Console())
