"""The serving process's collector: start-up heap frozen, what survives each collection frozen too, cycles
that die later freed by reclaims, finished tables freed by reference counting (``nines.server.runtime``).

Each workload that settles runs in a process of its own (the collector's settings are the whole
process's): tables of computer players moved by the real manager, journal and views, with a spectator
socket each, counted by ``gc.callbacks``.  Counts of objects and collections, not times: they depend on
what is allocated, not on the machine.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

import nines.server.tables.manager as tables_module
from nines.server import ServerConfig
from nines.server.config import ServerConfig as Config
from nines.server.runtime import SWITCH_INTERVAL_S, THRESHOLDS
from nines.server.store.database import Store
from nines.server.tables.manager import TableManager
from nines.server.wire.messages import CreateTable
from nines.server.wire.pubsub import LocalBroker

from ..waiting import until

WORKLOAD = r"""
import asyncio, gc, json, sys, tempfile
from pathlib import Path
from nines.server.config import ServerConfig
from nines.server.wire.messages import CreateTable
from nines.server.wire.pubsub import LocalBroker
from nines.server.runtime import CollectorPauses, settle
from nines.server.store.database import Store
from nines.server.tables.manager import TableManager

class Watching:
    seat = None
    def send(self, message): pass
    def send_text(self, text): pass

older = []  # at each collection's start: objects in the generations older than the young one
def look(phase, info):
    if phase == "start" and watching:
        older.append(len(gc.get_objects(1)) + len(gc.get_objects(2)))
watching = False

async def main(folder, settled, moves):
    global watching
    store = Store(f"sqlite:///{folder}/nines.db")
    store.migrate()
    manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
    pauses = CollectorPauses().install()
    if settled:
        settle()
    gc.callbacks.append(look)
    await manager.start()
    seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
    # paced (20 ms a move), so the tables do not play most of their matches while the others are made
    create = CreateTable.model_validate({"game": "neuf", "seats": seats, "bot_delay_ms": 20})
    for _ in range(16):
        seated = await manager.create(create)
        await manager.attach(manager.tables[seated.table.id], Watching())
    # counted from here: the tables move while they are made (on a fast machine, hundreds of moves), and the
    # window was once what was left of a fixed total (0 to 37 young collections by default, not about 36)
    start = [g.collections for g in pauses.generations]
    until = manager.journal.moves + moves
    watching = True
    while manager.journal.moves < until:
        if all(t.state.is_over for t in manager.tables.values()):
            raise SystemExit(f"every match ended after {manager.journal.moves} moves, before {until}")
        await asyncio.sleep(0.01)
    watching = False
    during = [g.collections - s for g, s in zip(pauses.generations, start)]
    await manager.stop()
    store.close()
    print(json.dumps({"during": during, "older": older, "frozen": gc.get_freeze_count(), "thresholds": gc.get_threshold(),
                      "switch": sys.getswitchinterval()}))

with tempfile.TemporaryDirectory() as folder:
    asyncio.run(main(folder, sys.argv[1] == "settled", int(sys.argv[2])))
"""

MOVES = 2000  # enough that CPython's defaults collect a few dozen times (16 to 23 at 1,200 moves; 36 to 37 here at 2,000)


def _run(script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300, check=True)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


@pytest.mark.slow
def test_a_settled_server_collects_only_what_was_allocated_since_the_last_collection() -> None:
    default, settled = _run(WORKLOAD, "default", str(MOVES)), _run(WORKLOAD, "settled", str(MOVES))
    # CPython's defaults: a young collection every few dozen moves, each promoting what survived into the
    # older generations, which the middle and full collections then walk again (how many depends on how the
    # journal batched the moves: fewer on a busy machine)
    assert default["during"][0] >= 20
    assert max(default["older"]) > 1_000
    # settled: the start-up heap is out of every collection, and so is whatever survived any collection since:
    # when a collection starts, the older generations are empty (it walks only what is new), and neither a
    # middle nor a full collection comes
    assert settled["frozen"] > 10_000
    assert settled["thresholds"] == list(THRESHOLDS)
    assert settled["switch"] == SWITCH_INTERVAL_S
    young, middle, full = settled["during"]
    assert young >= 2  # the tables' state grows: it is collected, a few thousand objects at a time
    assert max(settled["older"]) == 0
    assert middle == 0 and full == 0


RECLAIMS = r"""
import asyncio, gc, json, time, weakref
from nines.server.runtime import Collector

class Cycle:
    def __init__(self, payload):
        self.me = self  # a reference cycle: only the collector frees it
        self.payload = payload

async def main():
    memory = [100]  # the process's resident memory as the collector is told it (a test's own measure)
    clock = [0.0]
    collector = Collector(asyncio.get_running_loop(), growth=1.5, more=60, every_s=600,
                          resident=lambda: memory[0], clock=lambda: clock[0]).install()
    alive = lambda refs: sum(ref() is not None for ref in refs)
    report = {}

    async def settled():
        # the reclaim a collection asked for (if any) is made on the event loop: waited for until it is done,
        # not a count of the loop's turns assumed to be enough (none asked for: nothing to wait for)
        deadline = time.monotonic() + 30
        while collector._due:
            assert time.monotonic() < deadline, "the reclaim asked for was never made"
            await asyncio.sleep(0.01)

    # cycles alive at a collection (so frozen), dropped afterwards: no collection frees them
    cycles = [Cycle(bytearray(1000)) for _ in range(200)]
    refs = [weakref.ref(c) for c in cycles]
    gc.collect(0)
    del cycles
    for _ in range(3):
        gc.collect(0)
        gc.collect(2)
    await settled()
    report["frozen_dead_kept"] = alive(refs)

    # resident memory grew by half since the last full collection, but by less than `more`: nothing yet
    memory[0] = 155
    gc.collect(0)
    await settled()
    report["grown_little"] = alive(refs)
    # by half, and by more than `more`: the next collection asks for a reclaim, made on the event loop, which
    # frees them
    memory[0] = 161
    gc.collect(0)
    await settled()
    report["after_growth"] = alive(refs)
    report["reclaims_growth"] = collector.reclaims

    # the same for time: ten minutes after the last full collection, with memory as it was
    cycles = [Cycle(None) for _ in range(50)]
    refs = [weakref.ref(c) for c in cycles]
    gc.collect(0)
    del cycles
    clock[0] = 599
    gc.collect(0)
    await settled()
    report["before_time"] = alive(refs)
    clock[0] = 601
    gc.collect(0)
    await settled()
    report["after_time"] = alive(refs)
    report["reclaims"] = collector.reclaims
    report["thresholds"] = list(gc.get_threshold())
    collector.remove()
    print(json.dumps(report))

asyncio.run(main())
"""


def test_cycles_that_die_after_they_were_frozen_are_freed_by_a_reclaim_when_memory_grows_or_time_passes() -> None:
    report = _run(RECLAIMS)
    assert report["frozen_dead_kept"] == 200  # frozen: out of every collection, so kept while they were dead
    assert report["grown_little"] == 200
    assert report["after_growth"] == 0 and report["reclaims_growth"] == 1
    assert report["before_time"] == 50
    assert report["after_time"] == 0 and report["reclaims"] == 2
    assert report["thresholds"] == list(THRESHOLDS)


MEMORY = r"""
import asyncio, gc, json, time
from nines.server.runtime import settle, resident_bytes

class Cycle:
    def __init__(self):
        self.me = self
        self.payload = bytearray(1 << 20)  # a megabyte held by a cycle

async def main():
    collector = settle()
    collector.more = 64 << 20  # the default's 256 MB would need more memory than a test should take
    start = resident_bytes()
    highest = start
    for _ in range(600):  # 600 MB of cycles, each frozen by a collection before it dies
        held = [Cycle() for _ in range(2)]
        gc.collect(0)
        del held
        deadline = time.monotonic() + 30
        while collector._due:  # the event loop runs the reclaim asked for: waited for, not one turn assumed enough
            assert time.monotonic() < deadline, "the reclaim asked for was never made"
            await asyncio.sleep(0.001)
        highest = max(highest, resident_bytes())
    print(json.dumps({"start_mb": start / 2**20, "highest_mb": highest / 2**20, "reclaims": collector.reclaims}))

asyncio.run(main())
"""


def test_memory_held_by_cycles_dead_since_frozen_stays_bounded() -> None:
    report = _run(MEMORY)
    # 1,200 MB of cycles over the run: without reclaims every megabyte would stay; with them, resident
    # memory stays within RECLAIM_GROWTH (1.5) of what it was after the last reclaim, or 64 MB more, plus a round
    assert report["reclaims"] >= 3
    assert report["highest_mb"] < max(1.5 * report["start_mb"], report["start_mb"] + 64) + 8


def test_a_finished_table_leaves_memory_by_reference_counting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A settled server never walks what survived a collection, so a finished table that held a reference
    cycle (its driver held it, and it its driver) would wait for a reclaim: none is left."""
    monkeypatch.setattr(tables_module, "FINISHED_KEPT", 0)  # a finished table leaves memory as soon as nobody watches it

    class Watching:
        seat = None

        def send(self, message: object) -> None:
            pass

        def send_text(self, text: str) -> None:
            pass

    async def main() -> list[bool]:
        store = Store(f"sqlite:///{tmp_path / 'nines.db'}")
        store.migrate()
        manager = TableManager(store, LocalBroker(), Config(database_url="", bot_delay_ms=0))
        await manager.start()
        seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
        create = CreateTable.model_validate({"game": "neuf", "seats": seats, "bot_delay_ms": 0, "options": {"start_score": 1}})
        refs = []
        try:
            gc.collect()
            gc.disable()  # from here on only reference counting frees anything
            for _ in range(3):
                seated = await manager.create(create)
                table, watcher = manager.tables[seated.table.id], Watching()
                await manager.attach(table, watcher)
                refs.append(weakref.ref(table))
                await until(lambda t=table: t.state.is_over, within=120, what="the match's end")
                await manager.detach(table, watcher)
                del table, watcher, seated
            # the drivers' tasks end: waited for until a generous deadline (it was 2 s)
            await until(lambda: not any(ref() is not None for ref in refs), what="the finished tables to leave memory")
            return [ref() is not None for ref in refs]
        finally:
            gc.enable()
            await manager.stop()
            store.close()

    assert asyncio.run(main()) == [False, False, False]


def test_an_application_made_inside_another_program_leaves_the_collector_alone() -> None:
    """The collector and the switch interval are the whole process's: only ``nines serve`` settles them
    (``test_serve_command`` checks that it does)."""
    assert ServerConfig().settle is False
