"""``nines review``: what each card played cost, every hand known.

    nines review match.json               # every deal, as text
    nines review match.json --deal 3      # one deal
    nines simulate neuf --json | nines review - --json

For Le Neuf and Elyigit's Nines each card is scored from the position just before it by
the exact solver; rummy's discards are compared with the expert computer player's (an
opinion, not a proof).  A record that cannot be read or replayed is one line on standard
error and exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...review import MEASURE, OPINION, DealReview, RecordReview, ReviewError, review_record

EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/red] {message}")
    raise typer.Exit(EXIT_BAD_INPUT)


def _read(source: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except OSError as error:
        _fail(f"cannot read {source}: {error.strerror or error}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        _fail(f"{'standard input' if source == '-' else source} is not JSON: {error}")


def _counted(deal: DealReview) -> str:
    if deal.form == "partners":
        return "tricks for the seat's side"
    others = "two" if deal.form == "three" else "three"
    return f"the seat's own tricks against the other {others} together"


def _trick_table(deal: DealReview) -> Table:
    table = Table(title="Cards played (costly cards in red, with the best card(s))", title_justify="left")
    table.add_column("trick", justify="right")
    table.add_column("cards")
    table.add_column("costly")
    by_trick: dict[int, list[Any]] = {}
    for play in deal.plays:
        by_trick.setdefault(play.trick, []).append(play)
    for number, plays in by_trick.items():
        cards = Text()
        notes = Text()
        for play in plays:
            if cards:
                cards.append("  ")
            style = "red bold" if play.cost else ("dim" if not play.scored else "")
            who = play.seat if play.by == play.seat else f"{play.seat} (by {play.by})"
            cards.append(f"{who} {play.card.code}", style=style)
            if play.cost:
                if notes:
                    notes.append("; ")
                best = " ".join(card.code for card in play.best_cards)
                notes.append(f"{play.seat} {play.card.code} -{play.cost} (best {best}: {play.best} instead of {play.got})", style="red")
            elif not play.scored:
                if notes:
                    notes.append("; ")
                notes.append(f"{play.seat} {play.card.code} unscored", style="dim")
        table.add_row(str(number), cards, notes)
    return table


def _seat_table(deal: DealReview) -> Table:
    table = Table(title="Per player", title_justify="left")
    table.add_column("seat")
    table.add_column("cards played", justify="right")
    table.add_column("cards that cost", justify="right")
    table.add_column("tricks lost", justify="right")
    unscored = any(total.unscored for total in deal.seats.values())
    if unscored:
        table.add_column("unscored", justify="right")
    for seat, total in deal.seats.items():
        row = [seat, str(total.cards), str(total.errors), str(total.cost)]
        if unscored:
            row.append(str(total.unscored))
        table.add_row(*row)
    return table


def _render_trick_deal(deal: DealReview, console: Console) -> None:
    trump = "no trumps" if deal.trump == "NT" else f"trump {deal.trump}"
    console.rule(f"[bold]Deal {deal.number}[/bold]: {deal.game} ({deal.form}), {trump}")
    for note in deal.notes:
        console.print(f"[yellow]{note}[/yellow]")
    if not deal.plays:
        return
    console.print(f"Values: {_counted(deal)}; {MEASURE}.")
    if deal.exchange:
        table = Table(title="The exchange (the seat's tricks at the first lead)", title_justify="left")
        for column in ("seat", "chose", "tricks", "the other choice", "tricks", "cost"):
            table.add_column(column)
        for decision in deal.exchange:
            cost = decision.cost
            table.add_row(
                decision.seat,
                decision.choice,
                str(decision.value),
                decision.other_choice,
                str(decision.other_value),
                Text(str(cost), style="red bold" if cost else ""),
            )
        console.print(table)
    if deal.contract is not None:
        contract = deal.contract
        console.print(
            f"The contract: {contract.declarer} ({contract.side}) bid {contract.bid} and named {contract.trump}; "
            "the tricks the declaring side could make with each trump:"
        )
        table = Table()
        for trump_code in contract.by_trump:
            table.add_column(trump_code, justify="right")
        cells = []
        for trump_code, value in contract.by_trump.items():
            style = "bold green" if trump_code in contract.best_trumps else ""
            mark = "*" if trump_code == contract.trump else ""
            cells.append(Text(f"{value}{mark}", style=style))
        table.add_row(*cells)
        console.print(table)
        console.print("[dim]* the trump named; best trump(s) in green[/dim]")
    console.print(_trick_table(deal))
    console.print(_seat_table(deal))


def _render_rummy_deal(deal: DealReview, console: Console) -> None:
    console.rule(f"[bold]Deal {deal.number}[/bold]: rummy")
    console.print(f"[yellow]Discards compared with {OPINION}.[/yellow]")
    table = Table()
    for column in ("turn", "seat", "discarded", "the expert would discard"):
        table.add_column(column)
    for discard in deal.discards:
        expert = "the same" if discard.same else (discard.expert.code if discard.expert else discard.expert_action)
        table.add_row(str(discard.turn), discard.seat, discard.card.code, Text(expert, style="" if discard.same else "yellow"))
    console.print(table)


def render(review: RecordReview, console: Console) -> None:
    for deal in review.deals:
        if deal.game == "rummy":
            _render_rummy_deal(deal, console)
        else:
            _render_trick_deal(deal, console)


def register(app: typer.Typer) -> None:
    @app.command()
    def review(
        record: str = typer.Argument(..., help="A game record (JSON), or - for standard input."),
        deal: int | None = typer.Option(None, "--deal", "-d", help="Review only this deal (1 for the first)."),
        json_out: bool = typer.Option(False, "--json", help="Print the review as JSON."),
        max_nodes: int | None = typer.Option(
            None,
            "--max-nodes",
            help="Node budget of each deal's search (0: no limit). By default only the four-alone "
            "Le Neuf form is limited; cards past the budget are reported unscored.",
        ),
    ) -> None:
        """Score every card played against the best card, every hand known (the exact solver)."""
        data = _read(record)
        budget: int | str | None = "default" if max_nodes is None else (max_nodes or None)
        try:
            result = review_record(data, deal, max_nodes=budget)
        except (ReviewError, ValueError) as error:
            _fail(str(error))
        if json_out:
            sys.stdout.write(json.dumps(result.to_json()) + "\n")
            return
        render(result, Console(highlight=False))
