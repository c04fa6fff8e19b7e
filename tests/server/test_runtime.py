"""The serving process's collector: start-up heap frozen, young collections rare, no full collection
while tables move (``nines.server.runtime``).

Each workload runs in a process of its own (the collector's settings are the whole process's): tables of
computer players moved by the real manager, journal and views, with a spectator socket each, counted by
``gc.callbacks``.  Counts of collections, not times: they depend on what is allocated, not on the machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from nines.server import ServerConfig
from nines.server.runtime import SWITCH_INTERVAL_S, THRESHOLDS

WORKLOAD = r"""
import asyncio, gc, json, sys, tempfile
from pathlib import Path
from nines.server.config import ServerConfig
from nines.server.messages import CreateTable
from nines.server.pubsub import LocalBroker
from nines.server.runtime import CollectorPauses, settle
from nines.server.store import Store
from nines.server.tables import TableManager

class Watching:
    seat = None
    def send(self, message): pass
    def send_text(self, text): pass

async def main(folder, settled, moves):
    store = Store(f"sqlite:///{folder}/nines.db")
    store.migrate()
    manager = TableManager(store, LocalBroker(), ServerConfig(database_url="", bot_delay_ms=0))
    pauses = CollectorPauses().install()
    if settled:
        settle()
    await manager.start()
    seats = {s: {"kind": "bot", "bot": "basic"} for s in ("S", "W", "E")}
    create = CreateTable.model_validate({"game": "neuf", "seats": seats, "bot_delay_ms": 0})
    for _ in range(8):
        seated = await manager.create(create)
        await manager.attach(manager.tables[seated.table.id], Watching())
    start = [g.collections for g in pauses.generations]
    while manager.journal.moves < moves:
        await asyncio.sleep(0.01)
    during = [g.collections - s for g, s in zip(pauses.generations, start)]
    await manager.stop()
    store.close()
    print(json.dumps({"during": during, "frozen": gc.get_freeze_count(), "thresholds": gc.get_threshold(),
                      "switch": sys.getswitchinterval()}))

with tempfile.TemporaryDirectory() as folder:
    asyncio.run(main(folder, sys.argv[1] == "settled", int(sys.argv[2])))
"""

MOVES = 2000  # enough that CPython's defaults collect a few dozen times (16 to 23 at 1,200 moves; 36 to 37 here at 2,000)


def _workload(settled: bool) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", WORKLOAD, "settled" if settled else "default", str(MOVES)],
                          capture_output=True, text=True, timeout=300, check=True)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def test_a_settled_server_freezes_its_start_up_heap_and_collects_rarely_while_tables_move() -> None:
    default, settled = _workload(settled=False), _workload(settled=True)
    young_default, _, full_default = default["during"]
    young, _, full = settled["during"]
    # CPython's defaults: a young collection every few dozen moves, each walking what the last ones promoted
    # (how many depends on how the journal batched the moves: fewer on a busy machine)
    assert young_default >= 20
    # settled: the start-up heap is out of every collection, young collections an eighth as many or fewer
    # (the thresholds' ratio is 28), none full
    assert settled["frozen"] > 10_000
    assert settled["thresholds"] == list(THRESHOLDS)
    assert settled["switch"] == SWITCH_INTERVAL_S
    assert young * 8 <= young_default
    assert full == 0
    assert full_default >= full


def test_an_application_made_inside_another_program_leaves_the_collector_alone() -> None:
    """The collector and the switch interval are the whole process's: only ``nines serve`` settles them
    (``test_serve_command`` checks that it does)."""
    assert ServerConfig().settle is False
