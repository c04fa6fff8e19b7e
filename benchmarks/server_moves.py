"""The server's work per move without sockets or HTTP: CPU time per move of the tables' own path.

``server_load.py`` measures the whole server through real sockets, but on a shared machine its
figures move with everything else that runs.  This script runs the same tables inside one process,
with nothing between the tables and their sockets: ``--tables`` tables of Le Neuf (a person and two
computer players, ``basic``, no pause), each watched by ``--spectators`` sockets.  The person is played
through :meth:`TableManager.act` (a seeded random legal move as soon as it is its turn, as the load
generator plays); the sockets keep the text they are queued and count it.  Moves are stored in a SQLite
file by the server's own journal.  Spectators' changes are sent at most every ``SPECTATORS_EVERY_S``,
as in the server.

It prints the moves made, the process's CPU time per move (its own threads: the journal's included),
and the bytes queued per move.  What is left out: parsing socket frames, writing sockets, HTTP, the
reviews of finished deals.  ``--profile FILE`` writes a cProfile of the run (wall clock: the process
does nothing else).

The collector and the interpreter's switch interval are set as ``nines serve`` sets them
(:func:`nines.server.runtime.settle`; ``--no-settle``: CPython's defaults), and the collections since
start-up are printed.

    python benchmarks/server_moves.py [--moves 6000] [--tables 50] [--spectators 6] [--no-settle] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import random
import tempfile
import time
from pathlib import Path

from nines.server.config import ServerConfig
from nines.server.runtime import CollectorPauses, settle
from nines.server.store.database import Store
from nines.server.tables.manager import TableManager
from nines.server.tables.table import Table, TableError
from nines.server.wire.messages import CreateTable
from nines.server.wire.pubsub import LocalBroker


class Counted:
    """A socket that counts what it is queued."""

    def __init__(self, seat: str | None, turn: asyncio.Event | None = None) -> None:
        self.seat = seat
        self.bytes = 0
        self.messages = 0
        self.turn = turn

    def send(self, message: object) -> None:
        raise AssertionError("every message on the move path is sent as text")

    def send_text(self, text: str) -> None:
        self.bytes += len(text)
        self.messages += 1
        if self.turn is not None:
            self.turn.set()


async def person(manager: TableManager, create: CreateTable, spectators: int, rng: random.Random,
                 sockets: list[Counted], done: asyncio.Event, acts: list[float]) -> None:
    """One table place: a person who moves as soon as it is their turn; a new match when one ends."""
    while not done.is_set():
        seated = await manager.create(create)
        table: Table = manager.tables[seated.table.id]
        turn = asyncio.Event()
        mine = Counted(seated.seat, turn)
        watching = [Counted(None) for _ in range(spectators)]
        sockets.extend([mine, *watching])
        for socket in watching:
            await manager.attach(table, socket)
        await manager.attach(table, mine)
        while not table.state.is_over and not done.is_set():
            await turn.wait()
            turn.clear()
            state = table.state
            if state.acting_seat == mine.seat and not state.is_over:
                action = rng.choice(state.legal_actions())
                started = time.perf_counter()
                with contextlib.suppress(TableError):  # a refusal is counted nowhere: the next turn comes
                    await manager.act(table, mine.seat, table.seq, str(action))
                    acts.append(time.perf_counter() - started)
        for socket in (mine, *watching):
            await manager.detach(table, socket)


async def run(args: argparse.Namespace, folder: Path) -> None:
    store = Store(f"sqlite:///{folder / 'nines.db'}")
    store.migrate()
    manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
    pauses = CollectorPauses().install()
    if args.settle:
        settle()  # as `nines serve` does once started
    await manager.start()
    seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
    create = CreateTable.model_validate({"game": "neuf", "seats": seats, "bot_delay_ms": 0})
    done = asyncio.Event()
    sockets: list[Counted] = []
    acts: list[float] = []  # how long each of the person's moves took, from the call to its answer
    places = [asyncio.create_task(person(manager, create, args.spectators, random.Random(i), sockets, done, acts))
              for i in range(args.tables)]
    try:
        await asyncio.sleep(args.warmup)
        moves_before, bytes_before = manager.journal.moves, sum(s.bytes for s in sockets)
        acts.clear()
        profile = cProfile.Profile() if args.profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profile:
            profile.enable()
        while manager.journal.moves - moves_before < args.moves:  # noqa: ASYNC110 -- the journal's count is read, not waited on
            await asyncio.sleep(0.05)
        if profile:
            profile.disable()
            profile.dump_stats(args.profile)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        moves = manager.journal.moves - moves_before
        queued = sum(s.bytes for s in sockets) - bytes_before
        print(f"{moves} moves in {wall:.1f} s ({moves / wall:.0f} moves/s on this machine), "
              f"{args.tables} tables, {args.spectators} spectators each: "
              f"CPU {1000 * cpu / moves:.3f} ms per move, {queued / moves / 1000:.1f} kB queued per move "
              f"({manager.journal.moves / max(1, manager.journal.commits):.1f} moves per commit)", flush=True)
        ordered = sorted(acts)
        if ordered:  # the wall clock: on a busy machine it says as much about the machine as about the server
            print(f"the person's moves: {len(ordered)}, answered in p50 {1000 * ordered[len(ordered) // 2]:.1f} ms, "
                  f"p99 {1000 * ordered[int(0.99 * len(ordered))]:.1f} ms, worst {1000 * ordered[-1]:.1f} ms", flush=True)
        gens = ", ".join(f"gen{g}: {c['collections']} in {c['total_ms']:.0f} ms (worst {c['worst_ms']:.0f}, CPU {c['cpu_ms']:.0f})"
                         for g, c in enumerate(pauses.summary()["generations"]))
        print(f"collector since start-up: {gens}", flush=True)
    finally:
        done.set()
        for place in places:
            place.cancel()
        await asyncio.gather(*places, return_exceptions=True)
        await manager.stop()
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=6000, help="moves measured")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=6, help="spectators per table")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--settle", action=argparse.BooleanOptionalAction, default=True,
                        help="the collector and switch interval as `nines serve` sets them (runtime.settle)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the measured moves here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nines-moves-") as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()
