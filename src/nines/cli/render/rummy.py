"""Nines rummy in the terminal: the indicator and wilds, the table sets with what each wild
stands for, the discard pile, the other players, your hand, and the score sheet."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...games.rummy import RummyState, RummyView
from ...games.rummy.view import TableSetView
from . import card_text

MOVES_HELP = (
    "Moves: 'draw stock' or 'draw discard'; then any number of set plays:\n"
    "  'lay 7H 8H JK=9H TH'  a new run or monkey (a wild says what it stands for: JK=9H, TC=9H)\n"
    "  'extend H 6H'         add one card to a set (runs are named by suit, monkeys by rank: 'extend 9 9S')\n"
    "  'swap H 9H'           put the natural 9H in place of the wild standing for it, taking the wild\n"
    "then 'discard 4C' to end the turn.  Also: 'end session' (an open session ends after this hand),\n"
    "'sheet' (score sheet), 'help', 'quit'."
)

RANK_WORDS = {"A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
              "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings"}


def _placed(code: str, stands_for: str, wild: bool) -> str:
    if not wild:
        return card_text(code)
    return f"{card_text(code)}[dim]→[/]{card_text(stands_for)}"


def _set_line(table_set: TableSetView) -> Text:
    name = f"run {table_set.id}" if table_set.kind == "run" else f"monkey {table_set.id}"
    cards = " ".join(_placed(c.card.code, c.stands_for.code, c.wild) for c in table_set.cards)
    wants = " ".join(card_text(c.code) for c in table_set.wants)
    tail = f"  [dim]takes {wants}[/]" if wants else "  [dim](complete)[/]"
    return Text.from_markup(f"  [bold]{name:<9}[/] {cards}  [dim]laid by {table_set.owner}[/]{tail}")


def _hand(view: RummyView) -> Text:
    held = list(view.held.get(view.seat or "", ()))
    parts = []
    for card in view.hand:
        text = card_text(card.code)
        if card in held:
            held.remove(card)
            text = f"{text}[dim](held)[/]"
        elif card.is_joker or (card.rank is not None and card.rank.char == view.wild_rank):
            text = f"[reverse]{text}[/reverse]"
        parts.append(text)
    return Text.from_markup(" ".join(parts) or "(no cards)")


def _session_note(view: RummyView) -> str:
    if view.hands_in_session is not None:
        return f" of {view.hands_in_session}"
    if view.session_ending:
        return " (the last: the session ends after it)"
    return " (open session: 'end session' makes this hand the last)"


def table(view: RummyView) -> RenderableType:
    lines: list[RenderableType] = []
    wild = RANK_WORDS.get(view.wild_rank, view.wild_rank)
    head = (
        f"[bold]Hand {view.deal_number}{_session_note(view)}[/bold] · starter {view.starter} · "
        f"indicator {card_text(view.indicator.code)}: [bold]{wild}[/bold] and jokers are wild · "
        f"stock {view.stock_size}"
        + (f" (rebuilt {view.reshuffles}\N{MULTIPLICATION SIGN})" if view.reshuffles else "")
    )
    lines.append(Text.from_markup(head))
    if view.first_round:
        lines.append(Text.from_markup("[yellow]First round: draw and discard only, until play comes back to the starter.[/]"))
    pile = " ".join(card_text(c.code) for c in view.discard_pile[-8:])
    more = f"[dim]({len(view.discard_pile) - 8} more below)[/] " if len(view.discard_pile) > 8 else ""
    lines.append(Text.from_markup(f"Discard pile: {more}{pile or '(empty)'}  [dim]top on the right[/]"))
    if view.table:
        lines.append(Text.from_markup("Table:"))
        lines.extend(_set_line(s) for s in view.table)
    else:
        lines.append(Text.from_markup("Table: [dim](nothing laid yet)[/]"))
    players = []
    for seat in view.seats:
        mark = "→" if seat == view.to_act else " "
        opened = "opened" if seat in view.opened else "not opened"
        held = view.held.get(seat)
        held_text = f", holding {' '.join(card_text(c.code) for c in held)}" if held else ""
        players.append(f"{mark}{seat}: {view.hand_sizes[seat]} cards, {opened}{held_text}, total {view.scores[seat]}")
    lines.append(Text.from_markup("   ".join(players)))
    if view.moves:
        recent = [f"{m.seat} {m.action}" + (f" ({m.drew.code})" if m.drew else "") for m in view.moves[-6:]]
        lines.append(Text.from_markup("[dim]Last moves: " + "; ".join(recent) + "[/]"))
    if view.seat is not None:
        drawn = f"   [dim]drew {card_text(view.drawn.code)} from the {view.drawn_from}[/]" if view.drawn else ""
        lines.append(Text.from_markup(f"Your hand ({view.seat}): ") + _hand(view) + Text.from_markup(drawn))
    return Group(*lines)


def sheet(view: RummyView) -> RenderableType:
    grid = Table(title="Score sheet")
    grid.add_column("Hand", justify="right")
    grid.add_column("Out")
    for seat in view.seats:
        grid.add_column(seat, justify="right")
    for row in view.score_sheet:
        grid.add_row(
            str(row["hand"]),
            row["went_out"] or "stock ran out",
            *(f"{row['points'][s]} ({row['totals'][s]})" for s in view.seats),
        )
    return grid


def summary(state: RummyState) -> RenderableType:
    view = state.view(None)
    parts: list[RenderableType] = [sheet(view)]
    if state.is_over:
        names = ", ".join(state.winners)
        parts.append(Text.from_markup(f"[bold green]Winner{'s' if len(state.winners) > 1 else ''}: {names}[/]"))
    return Group(*parts)
