"""People first: computer players' moves stored in the same commit as a person's are shown after it.

Twelve tables of computer players alone move with no pause while a person plays at a thirteenth, all through
the real manager, journal and SQLite store.  Every commit is recorded (which moves it held) and every move
applied (by whom, in what order): whenever a person's move shares a commit with computer players' moves,
none of those is applied before it.  With the answers given in the order the moves came, a computer
player's move that came first was applied (and shown, and the next computer player decided) first.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from nines.server.config import ServerConfig
from nines.server.store.database import SeqConflict, Store, StoredAction
from nines.server.store.people import DealStat
from nines.server.tables.manager import TableManager
from nines.server.tables.table import Table
from nines.server.wire.messages import AckMessage, CreateTable
from nines.server.wire.pubsub import LocalBroker

BOTS_ALONE = 12
PERSONS_MOVES = 25


class Watching:
    """A spectator socket that keeps nothing; the person's own tells when the table changed."""

    def __init__(self, seat: str | None = None, changed: asyncio.Event | None = None) -> None:
        self.seat = seat
        self.changed = changed

    def send(self, message: object) -> None:
        self.send_text("")

    def send_text(self, text: str) -> None:
        if self.changed is not None:
            self.changed.set()


class RecordedStore(Store):
    """The real store, recording what each commit held."""

    commits: list[list[tuple[str, int]]]

    def append_actions(self, batch: Sequence[tuple[str, StoredAction]]) -> list[SeqConflict | None]:
        self.commits.append([(table_id, action.seq) for table_id, action in batch])
        return super().append_actions(batch)


def test_computer_players_moves_committed_with_a_persons_are_applied_after_it(tmp_path: Path) -> None:
    async def main() -> tuple[list[list[tuple[str, int]]], list[tuple[str, int]], set[tuple[str, int]]]:
        store = RecordedStore(f"sqlite:///{tmp_path / 'nines.db'}")
        store.commits = []
        store.migrate()
        manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
        applied: list[tuple[str, int]] = []  # (table, seq) in the order the moves were applied
        manager.action_listeners.append(lambda table: applied.append((table.id, table.seq)))
        await manager.start()
        bots = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
        for _ in range(BOTS_ALONE):
            seated = await manager.create(CreateTable.model_validate({"game": "neuf", "seats": bots, "bot_delay_ms": 0}))
            await manager.attach(manager.tables[seated.table.id], Watching())
        mine = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
        seated = await manager.create(CreateTable.model_validate({"game": "neuf", "seats": mine, "bot_delay_ms": 0}))
        table: Table = manager.tables[seated.table.id]
        changed = asyncio.Event()
        await manager.attach(table, Watching("S", changed))
        rng = random.Random(7)
        persons: set[tuple[str, int]] = set()  # the person's own moves (table, seq)
        while len(persons) < PERSONS_MOVES and not table.state.is_over:
            await asyncio.wait_for(changed.wait(), 30)
            changed.clear()
            if table.state.acting_seat == "S":
                ack = await manager.act(table, "S", table.seq, str(rng.choice(table.state.legal_actions())))
                persons.add((table.id, ack.seq))
        await manager.stop()
        store.close()
        return store.commits, applied, persons

    commits, applied, persons = asyncio.run(main())
    order = {move: n for n, move in enumerate(applied)}
    shared = 0
    for commit in commits:
        for person_move in (move for move in commit if move in persons):
            others = [move for move in commit if move not in persons and move in order]
            shared += bool(others)
            assert all(order[person_move] < order[move] for move in others), (person_move, commit)
    assert shared >= 5  # the person's moves did share commits with the computer players' (the case tested)


class HeldStatisticsStore(Store):
    """The real store, whose statistics' writes wait until the test lets them go."""

    began: threading.Event
    go: threading.Event

    def add_deal_stats(self, stats: Iterable[DealStat]) -> int:
        self.began.set()
        self.go.wait(60)
        return super().add_deal_stats(stats)


def test_a_deals_statistics_are_written_while_the_person_plays_on_and_read_once_written(tmp_path: Path) -> None:
    """The move that ends a deal does not wait for its statistics' write (a round trip to a thread and a
    transaction of its own: the slowest acknowledgements under ``benchmarks/server_load.py``); whoever reads
    statistics afterwards waits for it."""
    store = HeldStatisticsStore(f"sqlite:///{tmp_path / 'nines.db'}")
    store.began, store.go = threading.Event(), threading.Event()
    store.migrate()

    async def main() -> dict[str, Any]:
        manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
        await manager.start()
        mine = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
        seated = await manager.create(CreateTable.model_validate({"game": "neuf", "seats": mine, "bot_delay_ms": 0, "name": "Ann"}))
        table: Table = manager.tables[seated.table.id]
        changed = asyncio.Event()
        await manager.attach(table, Watching("S", changed))
        rng = random.Random(3)
        after = 0  # the person's moves acknowledged while the first deal's statistics were being written
        while after < 3:
            await asyncio.wait_for(changed.wait(), 30)  # (before: the deal's last move waited for the write)
            changed.clear()
            if table.state.acting_seat == "S":
                await asyncio.wait_for(manager.act(table, "S", table.seq, str(rng.choice(table.state.legal_actions()))), 30)
                after += store.began.is_set()
        assert await asyncio.to_thread(store.person_stats, "Ann") == {}  # not written yet
        reading = asyncio.create_task(manager.results_written())
        await asyncio.sleep(0.05)  # a check that nothing happens: on a busy machine it proves less, it cannot fail for it
        assert not reading.done()  # a reader waits for the write under way
        store.go.set()
        await asyncio.wait_for(reading, 30)
        games: dict[str, Any] = await asyncio.to_thread(store.person_stats, "Ann")
        await manager.stop()
        return games

    try:
        games = asyncio.run(main())
    finally:
        store.go.set()
        store.close()
    assert games["neuf"]["deals"] == 1


class Answering:
    """A person's socket as the manager acknowledges on it, noting the round of the event loop of each answer."""

    def __init__(self, rounds: Callable[[], int]) -> None:
        self.rounds = rounds
        self.acknowledged: dict[int, int] = {}  # move -> the round its acknowledgement was sent in

    def send(self, message: AckMessage) -> None:
        self.acknowledged[message.seq] = self.rounds()

    async def reply(self, message: AckMessage) -> None:
        self.send(message)

    async def flush(self) -> None:
        pass

    async def __call__(self, message: AckMessage) -> None:  # (how an acknowledgement was once given)
        self.send(message)


def test_a_persons_move_is_applied_and_acknowledged_in_the_round_its_commit_is_answered(tmp_path: Path) -> None:
    """Not a round later, when the move's task wakes: each round of the event loop runs every task then ready
    (under load a handful of computer players' moves and spectators' patches: 14 ms at the median)."""
    async def main() -> tuple[dict[int, int], dict[int, int]]:
        store = Store(f"sqlite:///{tmp_path / 'nines.db'}")
        store.migrate()
        manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
        await manager.start()
        loop = asyncio.get_running_loop()
        rounds = 0

        def tick() -> None:  # once a round
            nonlocal rounds
            rounds += 1
            loop.call_soon(tick)

        tick()
        answered: dict[int, int] = {}  # the person's move -> the round its commit's answers came in
        given = manager.journal._answered

        def noting(batch: list[Any], answers: Any, failure: Any) -> None:
            for waiting in batch:
                if waiting.first:
                    answered[waiting.action.seq] = rounds
            given(batch, answers, failure)

        manager.journal._answered = noting  # type: ignore[method-assign]
        mine = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}
        seated = await manager.create(CreateTable.model_validate({"game": "neuf", "seats": mine, "bot_delay_ms": 0}))
        table: Table = manager.tables[seated.table.id]
        changed = asyncio.Event()
        await manager.attach(table, Watching("S", changed))
        socket = Answering(lambda: rounds)
        rng = random.Random(5)
        while len(socket.acknowledged) < 10:
            await asyncio.wait_for(changed.wait(), 30)
            changed.clear()
            if table.state.acting_seat == "S":
                await manager.act(table, "S", table.seq, str(rng.choice(table.state.legal_actions())), socket)  # type: ignore[arg-type]
        await manager.stop()
        store.close()
        return answered, socket.acknowledged

    answered, acknowledged = asyncio.run(main())
    assert acknowledged == {seq: answered[seq] for seq in acknowledged}
