"""Le Neuf in the terminal."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...games.neuf import NeufState, NeufView
from . import card_text

TRUMP_NAMES = {"H": "hearts ♥", "D": "diamonds ♦", "C": "clubs ♣", "S": "spades ♠", "NT": "no trumps"}

MOVES_HELP = (
    "Moves: 'keep' or 'exchange' during the exchange; then a card to play, e.g. '9H', 'play 10s', 'AC'.\n"
    "Also: 'sheet' (score sheet), 'last' (last trick), 'help', 'quit'."
)


def sheet(view: NeufView) -> RenderableType:
    grid = Table(title="Score sheet", show_lines=False)
    grid.add_column("Deal", justify="right")
    grid.add_column("Trump")
    for side in view.sides:
        grid.add_column(side, justify="right")
    grid.add_column("Total", justify="right")
    for row in view.score_sheet:
        trump = TRUMP_NAMES.get(row["trump"], "") if row["trump"] else "start"
        grid.add_row(str(row["deal"] or ""), trump, *(str(row["scores"][s]) for s in view.sides), str(row["total"]))
    return grid


def _hand(view: NeufView) -> Text:
    legal = {a.split()[-1] for a in view.legal if a.startswith("play")}
    parts = []
    for card in view.hand:
        text = card_text(card.code)
        parts.append(f"[underline]{text}[/underline]" if card.code in legal else text)
    return Text.from_markup(" ".join(parts) or "(no cards)")


def table(view: NeufView) -> RenderableType:
    lines: list[RenderableType] = []
    head = (
        f"[bold]Deal {view.deal_number}[/bold] · dealer {view.dealer} · trump [bold]{TRUMP_NAMES[view.trump]}[/bold] · "
        f"quota {view.quota}"
    )
    lines.append(Text.from_markup(head))
    won = "  ".join(f"{s}: {view.tricks_won[s]} tricks" for s in view.seats)
    scores = "  ".join(f"{s} {v}" for s, v in view.scores.items())
    lines.append(Text.from_markup(f"{won}   [dim]scores[/dim] {scores}"))
    if view.phase == "exchange":
        done = ", ".join(f"{s} {d}s" for s, d in view.exchanges.items()) or "nobody has decided yet"
        centre = "the spare hand" if view.centre_from == "spare" else f"the hand {view.centre_from} left"
        lines.append(Text.from_markup(f"Exchange: {done}. In the centre: {centre}."))
    if view.remembered:
        where = view.remembered.now_with
        lines.append(Text.from_markup(
            f"[dim]You left[/dim] {' '.join(card_text(c.code) for c in view.remembered.cards)} "
            f"[dim]({'now with ' + where if where in view.seats else where})[/dim]"
        ))
    if view.last_trick and (not view.trick or not view.trick.plays):
        played = "  ".join(f"{s} {card_text(c)}" for s, c in view.last_trick.plays)
        lines.append(Text.from_markup(f"[dim]Last trick:[/dim] {played} → {view.last_trick.winner}"))
    if view.trick is not None:
        played = "  ".join(f"{s} {card_text(c)}" for s, c in view.trick.plays) or "(nothing yet)"
        lines.append(Text.from_markup(f"Trick {len(view.tricks_played) + 1} led by {view.trick.leader}: {played}"))
    if view.seat:
        lines.append(Text.from_markup(f"Your hand ({view.seat}): ") + _hand(view))
    return Group(*lines)


def summary(state: NeufState) -> RenderableType:
    view = state.view(None)
    parts: list[RenderableType] = [sheet(view)]
    if state.is_over:
        parts.append(Text.from_markup(f"[bold green]Winner{'s' if len(state.winners) > 1 else ''}: {', '.join(state.winners)}[/]"))
    return Group(*parts)
