"""``nines ratings GAME``: the leaderboard of a game, from the server's database.

    nines ratings neuf                       # settled people and every computer player, best first
    nines ratings rummy --anchor 20          # first play 20 more short matches among the computer players and rate them
                                             # (nines serve plays the first 24 a game by itself: docs/ratings.md)
    nines ratings elyigit --json             # the rows GET /api/ratings/elyigit gives
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table


def register(app: typer.Typer) -> None:
    @app.command()
    def ratings(
        game: str = typer.Argument(..., help="neuf, elyigit or rummy"),
        database_url: str | None = typer.Option(
            None, "--database-url", envvar="NINES_DATABASE_URL",
            help="SQLAlchemy URL of the server's database (default: the SQLite file in --data-dir).",
        ),
        data_dir: Path = typer.Option(Path("data"), "--data-dir", help="The server's data folder."),
        anchor: int = typer.Option(
            0, "--anchor", min=0, max=500,
            help="Before printing, play this many more short matches among the computer players and rate them (their anchor).",
        ),
        anchor_players: str = typer.Option(
            "random,basic,ismcts,expert", "--anchor-players", help="The computer players of the anchor matches.",
        ),
        seed: int = typer.Option(0, "--seed", help="Seed of the anchor matches."),
        as_json: bool = typer.Option(False, "--json", help="The rows as JSON (as GET /api/ratings/GAME)."),
    ) -> None:
        """Print a game's leaderboard: people with a settled rating, and the computer players (marked)."""
        from ...games import available_games
        from ...ratings import leaderboard
        from ...server.anchoring import anchor_game
        from ...server.config import default_database_url
        from ...server.store.database import Store
        from ...server.store.standing import Standing

        if game not in available_games():
            raise typer.BadParameter(f"one of {', '.join(available_games())}", param_hint="GAME")
        store = Store(database_url or default_database_url(data_dir))
        try:
            store.migrate()
            standing = Standing(store)
            if anchor:
                names = [n.strip() for n in anchor_players.split(",") if n.strip()]
                anchor_game(standing, game, standing.anchor_count(game) + anchor, names, seed)
            rows = leaderboard(standing.board(game))
        finally:
            store.close()
        if as_json:
            typer.echo(json.dumps([r.as_dict() for r in rows]))
            return
        table = Table(title=f"Ratings: {game}")
        for column, justify in (("#", "right"), ("Name", "left"), ("Rating", "right"), ("±", "right"),
                                ("Matches", "right"), ("", "left")):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        for place, row in enumerate(rows, start=1):
            marks = ", ".join(m for m, on in (("computer", row.computer), ("provisional", row.provisional)) if on)
            table.add_row(str(place), row.name, str(row.rating), str(row.deviation), str(row.matches), marks)
        Console().print(table if rows else f"No settled ratings yet for {game}.")
