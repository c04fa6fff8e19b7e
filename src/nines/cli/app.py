"""The ``nines`` command line (Typer + Rich)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from ..bots import UnknownPlayer, make_player, play_match
from ..games import unattended
from ..record import RecordError
from ..record import replay as replay_record
from .commands import register_all
from .options import build_options, game_spec

app = typer.Typer(
    name="nines",
    help="Nines: Le Neuf, Elyigit's Nines and Nines rummy — play, simulate, replay, solve and analyse.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()

PresetOpt = typer.Option(None, "--preset", "-p", help="A named rules preset (see 'nines presets GAME').")
OptionOpt = typer.Option(None, "--option", "-o", help="Override one option: name=value (repeatable).")


def _players_for(seats: tuple[str, ...], names: str, game_id: str, rng: random.Random) -> dict[str, object]:
    listed = [n.strip() for n in names.split(",") if n.strip()]
    if len(listed) == 1:
        listed = listed * len(seats)
    if len(listed) != len(seats):
        raise typer.BadParameter(f"give one player per seat ({len(seats)}: {' '.join(seats)}) or a single name for all", param_hint="--players")
    try:
        return {seat: make_player(name, game_id, random.Random(rng.random())) for seat, name in zip(seats, listed, strict=True)}
    except UnknownPlayer as error:
        raise typer.BadParameter(str(error), param_hint="--players") from None


def _player_count_and_names(spec_id: str, players: str | None, pairs: list[str] | None, others: int = 0) -> tuple[dict[str, Any], str | None]:
    """``--players`` is the same in every command: a number of players, or computer players' names.

    A number sets the rummy option ``players`` (the trick games' forms fix their number of
    seats); names are the computer players, and in rummy as many names as seats (plus the
    person at the keyboard, ``others=1``) also set the number of players unless ``-o players=``
    does.  Returns the option to add and the names (``None`` for a bare number).
    """
    if players is None:
        return {}, None
    text = players.strip()
    if text.isdigit():
        if spec_id != "rummy":
            raise typer.BadParameter(
                f"{text} players: the number of players of {spec_id} is fixed by its form (see 'nines presets {spec_id}'); "
                "--players takes a number only for rummy, or the computer players' names (e.g. basic,expert)",
                param_hint="--players",
            )
        return {"players": int(text)}, None
    names = [n.strip() for n in text.split(",") if n.strip()]
    explicit = any(pair.partition("=")[0].strip() == "players" for pair in pairs or [])
    if spec_id == "rummy" and len(names) > 1 and not explicit:
        return {"players": len(names) + others}, text
    return {}, text


@app.command()
def presets(game: str = typer.Argument(..., help="neuf, elyigit or rummy")) -> None:
    """List a game's named rules presets and the options each sets."""
    from ..games.contract import options_to_dict

    spec = game_spec(game)
    default = options_to_dict(spec.presets[spec.default_preset])
    for name, opts in spec.presets.items():
        changed = {k: v for k, v in options_to_dict(opts).items() if v != default.get(k)}
        text = ", ".join(f"{k}={v}" for k, v in changed.items()) or "(the standard game)"
        console.print(f"[bold]{name}[/bold]: {text}")
    console.print("\nOptions and their standard values:")
    for k, v in default.items():
        console.print(f"  {k} = {v}")


@app.command()
def simulate(
    game: str = typer.Argument(..., help="neuf, elyigit or rummy"),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the deals (the whole match is reproducible from it)."),
    players: str = typer.Option(
        "basic", "--players",
        help="Computer players' names, one per seat or one for all (rummy: as many names as players); or, for rummy, a number of players.",
    ),
    preset: str | None = PresetOpt,
    option: list[str] | None = OptionOpt,
    json_out: bool = typer.Option(False, "--json", help="Print the whole match as a game record (JSON)."),
    out: Path | None = typer.Option(None, "--out", help="Write the record to this file."),
) -> None:
    """Let computer players play a whole match and print its record or a summary."""
    spec = game_spec(game)
    extra, names = _player_count_and_names(spec.id, players, option)
    # nobody is there to end an open rummy session: it plays one hand per player
    options = unattended(build_options(spec, preset, option, extra))
    state = spec.new_match(options, seed)
    seated = _players_for(state.seats, names or "basic", spec.id, random.Random(seed))
    play_match(state, seated)  # type: ignore[arg-type]
    record = state.record(players={seat: p.name for seat, p in seated.items()})  # type: ignore[call-arg, attr-defined]
    text = json.dumps(record, indent=None if json_out else 2)
    if out:
        out.write_text(json.dumps(record, indent=1) + "\n")
    if json_out:
        sys.stdout.write(text + "\n")
    elif not out:
        from .render import summary

        console.print(summary(spec.id, state))
    else:
        console.print(f"wrote {out} ({len(record['deals'])} deals, winners {', '.join(record['winners'])})")


@app.command()
def replay(path: Path = typer.Argument(..., exists=True, dir_okay=False, help="A game record (JSON) to replay and check.")) -> None:
    """Replay a game record through the rules and check every deal, action and score."""
    try:
        record = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        console.print(f"[red]{path} is not JSON: {error}[/red]")
        raise typer.Exit(1) from None
    try:
        state = replay_record(record)
    except RecordError as error:
        console.print(f"[red]record does not replay: {error}[/red]")
        raise typer.Exit(1) from None
    from .render import summary

    console.print(summary(record["game"], state))
    console.print(f"[green]ok[/green]: {len(record['deals'])} deals replayed, every action legal, results and scores match")


@app.command()
def play(
    game: str = typer.Argument(..., help="neuf, elyigit or rummy"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the deals (random if omitted)."),
    seat: str | None = typer.Option(None, "--seat", help="Your seat (default: the first seat, S in Le Neuf)."),
    opponents: str | None = typer.Option(None, "--opponents", help="Computer players for the other seats (one name, or one per seat); basic by default."),
    players: str | None = typer.Option(
        None, "--players", "-n",
        help="For rummy, the number of players; or the computer players' names for the other seats (as --opponents).",
    ),
    preset: str | None = PresetOpt,
    option: list[str] | None = OptionOpt,
) -> None:
    """Play a match in the terminal against computer players."""
    from .terminal import play_in_terminal

    spec = game_spec(game)
    extra, names = _player_count_and_names(spec.id, players, option, others=1)
    if names is not None and opponents is not None:
        raise typer.BadParameter(
            "name the computer players once: with --players or with --opponents (they mean the same in 'nines play')",
            param_hint="--players",
        )
    opponents = names or opponents or "basic"
    options = build_options(spec, preset, option, extra)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    state = spec.new_match(options, seed)
    me = (seat or state.seats[0]).upper()
    if me not in state.seats:
        raise typer.BadParameter(f"{me} is not a seat; the seats are {' '.join(state.seats)}", param_hint="--seat")
    others = [s for s in state.seats if s != me]
    bots = _players_for(tuple(others), opponents, spec.id, random.Random(seed))
    play_in_terminal(spec, state, me, bots, console, seed)  # type: ignore[arg-type]


register_all(app)


def main() -> None:  # console-script entry point
    app()
