"""Elyigit's Nines in the terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...cards import Card
from ...games.elyigit import ElyigitState, ElyigitView
from . import card_text

TRUMP_NAMES = {"H": "hearts ♥", "D": "diamonds ♦", "C": "clubs ♣", "S": "spades ♠", "NT": "no trumps"}

MOVES_HELP = (
    "Moves: in the auction 'bid 6' (or just '6') or 'pass'; the declarer names trumps with 'trump H' (or 'H');\n"
    "then a card to play, e.g. '9H', 'play 7s'.  Ace is low, nine is high.  Holding the led suit you must beat\n"
    "its best card when you can; void, you must trump (over the trump down if you can).  A declarer plays the\n"
    "dummy's cards too when the dummy is to play.  Also: 'sheet' (score sheet), 'last' (last trick), 'help', 'quit'."
)


def _contract_text(contract: dict[str, Any] | None) -> str:
    if not contract:
        return "thrown in"
    forced = " (forced)" if contract.get("forced") else ""
    return f"{contract['bid']} {TRUMP_NAMES[contract['trump']]} by {contract['declarer']}{forced}"


def sheet(view: ElyigitView) -> RenderableType:
    grid = Table(title=f"Score sheet (first to {view.target})", show_lines=False)
    grid.add_column("Deal", justify="right")
    grid.add_column("Contract")
    grid.add_column("Tricks")
    grid.add_column("Result")
    for side in view.sides:
        grid.add_column(side, justify="right")
    for row in view.score_sheet:
        contract = row["contract"]
        tricks = " ".join(f"{s} {n}" for s, n in (row["tricks"] or {}).items())
        result = "" if row["made"] is None else ("made" if row["made"] else "defeated")
        change = row["score_change"]
        grid.add_row(
            str(row["deal"]),
            _contract_text(contract),
            tricks,
            result,
            *(f"{row['scores'][s]} ({change[s]:+d})" for s in view.sides),
        )
    return grid


def _cards(cards: Sequence[Card], playable: set[str]) -> Text:
    parts = []
    for card in cards:
        text = card_text(card.code)
        parts.append(f"[underline]{text}[/underline]" if card.code in playable else text)
    return Text.from_markup(" ".join(parts) or "(no cards)")


def table(view: ElyigitView) -> RenderableType:
    lines: list[RenderableType] = []
    scores = "  ".join(f"{s} {v}" for s, v in view.scores.items())
    lines.append(Text.from_markup(
        f"[bold]Deal {view.deal_number}[/bold] · dealer {view.dealer} · [dim]scores[/dim] {scores} "
        f"[dim](first to {view.target})[/dim]"
    ))
    if view.auction or view.phase == "auction":
        calls = "  ".join(f"{s} {c}" for s, c in view.auction) or "(no calls yet)"
        lines.append(Text.from_markup(f"Auction: {calls}"))
    if view.declarer is not None:
        trump = TRUMP_NAMES[view.trump] if view.trump else "[dim]not yet named[/dim]"
        contract = f"Contract: [bold]{view.contract}[/bold] by {view.declarer}, trumps: {trump}"
        if view.targets:
            contract += " · need " + ", ".join(f"{s} {n}" for s, n in view.targets.items())
        lines.append(Text.from_markup(contract))
    if view.phase == "play" or view.tricks_played:
        won = "  ".join(f"{s} {n}" for s, n in view.side_tricks.items())
        lines.append(Text.from_markup(f"Tricks: {won}"))
    playable = {a.split()[-1] for a in view.legal if a.startswith("play")}
    playing_dummy = view.playing_for is not None and view.playing_for != view.seat
    if view.dummy_hand is not None and view.dummy is not None:
        label = f"Dummy ({view.dummy})" + (" — [bold]you play it now[/bold]" if playing_dummy else "")
        lines.append(Text.from_markup(f"{label}: ") + _cards(view.dummy_hand, playable if playing_dummy else set()))
    if view.last_trick and (not view.trick or not view.trick.plays):
        played = "  ".join(f"{s} {card_text(c)}" for s, c in view.last_trick.plays)
        lines.append(Text.from_markup(f"[dim]Last trick:[/dim] {played} → {view.last_trick.winner}"))
    if view.trick is not None:
        played = "  ".join(f"{s} {card_text(c)}" for s, c in view.trick.plays) or "(nothing yet)"
        lines.append(Text.from_markup(f"Trick {len(view.tricks_played) + 1} led by {view.trick.leader}: {played}"))
    if view.seat and view.seat != view.dummy:
        mine = set() if playing_dummy else playable
        lines.append(Text.from_markup(f"Your hand ({view.seat}): ") + _cards(view.hand, mine))
    elif view.seat:
        lines.append(Text.from_markup(f"You are the dummy ({view.seat}); {view.declarer} plays your cards."))
    return Group(*lines)


def summary(state: ElyigitState) -> RenderableType:
    view = state.view(None)
    parts: list[RenderableType] = [sheet(view)]
    if state.is_over:
        winners = ", ".join(state.winners)
        parts.append(Text.from_markup(f"[bold green]Winners: {winners}[/]"))
    return Group(*parts)
