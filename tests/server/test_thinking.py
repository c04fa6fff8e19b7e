"""Where computer players think: quick kinds of players on the event loop, slow ones in threads."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from nines.server.tables import thinking
from nines.server.tables.thinking import QUICK_IN_A_ROW, QUICK_S, SLOW_ON_LOOP_S, Thinking


class Player:
    """Decides by spending ``cost`` seconds of the (fake) clock; answers with the thread it ran in."""

    def __init__(self, name: str, clock: list[float], cost: float) -> None:
        self.name = name
        self.clock = clock
        self.cost = cost
        self.wall: list[float] | None = None  # a wall clock of its own, when a test tells the two apart
        self.pause = 0.0  # wall time that passes during a decision, on top of its cost

    def decide(self, view: Any) -> int:
        self.clock[0] += self.cost
        if self.wall is not None:
            self.wall[0] += self.cost + self.pause
        return threading.get_ident()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [0.0]
    monkeypatch.setattr(thinking.time, "thread_time", lambda: now[0])
    monkeypatch.setattr(thinking.time, "perf_counter", lambda: now[0])
    return now


def test_a_quick_player_decides_on_the_event_loop_once_it_has_been_quick_a_few_times(clock: list[float]) -> None:
    async def run() -> None:
        minds = Thinking(threads=1)
        loop_thread = threading.get_ident()
        quick, slow = Player("basic", clock, QUICK_S / 10), Player("expert", clock, QUICK_S * 5)
        try:
            for _ in range(QUICK_IN_A_ROW):  # measured in threads first
                assert await minds.decide(quick.decide, None) != loop_thread
                assert await minds.decide(slow.decide, None) != loop_thread
            assert await minds.decide(quick.decide, None) == loop_thread
            assert minds.quick(quick.decide)
            assert not minds.quick(slow.decide)
            assert await minds.decide(slow.decide, None) != loop_thread  # the slow one never leaves the threads
            # one slow decision on the event loop sends that kind back to the threads
            quick.cost = QUICK_S * 2
            assert await minds.decide(quick.decide, None) == loop_thread
            assert not minds.quick(quick.decide)
            quick.cost = QUICK_S / 10
            assert await minds.decide(quick.decide, None) != loop_thread
        finally:
            minds.close()

    asyncio.run(run())


def test_each_name_of_a_player_class_is_measured_on_its_own(clock: list[float]) -> None:
    async def run() -> None:
        minds = Thinking(threads=1)
        try:
            for _ in range(QUICK_IN_A_ROW):
                await minds.decide(Player("basic", clock, 0.0).decide, None)
            assert minds.quick(Player("basic", clock, 0.0).decide)
            assert not minds.quick(Player("ismcts", clock, 0.0).decide)
        finally:
            minds.close()

    asyncio.run(run())


def test_a_kind_that_once_held_the_event_loop_long_decides_in_threads_from_then_on(clock: list[float]) -> None:
    # attack: rummy's basic player is quick in nearly every decision (so it decides on the event loop) but
    # now and then takes a second or more (a hand with many wilds: measured 1.9 s of CPU in a 2-match run);
    # each such decision stopped every table of the process, and after 8 quick ones it was back on the loop
    async def run() -> None:
        minds = Thinking(threads=1)
        loop_thread = threading.get_ident()
        player = Player("basic", clock, QUICK_S / 10)
        try:
            for _ in range(QUICK_IN_A_ROW):
                await minds.decide(player.decide, None)
            player.cost = SLOW_ON_LOOP_S * 2
            assert await minds.decide(player.decide, None) == loop_thread  # the one that could not be foreseen
            player.cost = QUICK_S / 10
            for _ in range(QUICK_IN_A_ROW * 4):
                assert await minds.decide(player.decide, None) != loop_thread
            assert not minds.quick(player.decide)
        finally:
            minds.close()

    asyncio.run(run())


def test_a_pause_of_the_machine_during_a_quick_decision_does_not_keep_its_kind_off_the_loop(
    clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    wall = [0.0]
    monkeypatch.setattr(thinking.time, "perf_counter", lambda: wall[0])

    async def run() -> None:
        minds = Thinking(threads=1)
        loop_thread = threading.get_ident()
        player = Player("basic", clock, QUICK_S / 10)
        player.wall = wall
        try:
            for _ in range(QUICK_IN_A_ROW):
                await minds.decide(player.decide, None)
            player.pause = SLOW_ON_LOOP_S * 5  # the process waited for a core: wall time, no CPU
            assert await minds.decide(player.decide, None) == loop_thread
            player.pause = 0.0
            for _ in range(QUICK_IN_A_ROW):
                await minds.decide(player.decide, None)
            assert await minds.decide(player.decide, None) == loop_thread  # back on the loop, not kept off it
        finally:
            minds.close()

    asyncio.run(run())


def test_a_pause_of_the_machine_during_a_quick_decision_on_the_loop_leaves_its_kind_there(
    clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quick decision is measured by its CPU time on the event loop as in a thread: the interpreter lock held
    by the journal's thread for a few milliseconds, or a busy machine, sent the kind back to the threads for
    its next eight decisions (each then handed to a thread and back), which a profile of the load showed."""
    wall = [0.0]
    monkeypatch.setattr(thinking.time, "perf_counter", lambda: wall[0])

    async def run() -> None:
        minds = Thinking(threads=1)
        loop_thread = threading.get_ident()
        player = Player("basic", clock, QUICK_S / 10)
        player.wall = wall
        try:
            for _ in range(QUICK_IN_A_ROW):
                await minds.decide(player.decide, None)
            player.pause = QUICK_S * 3  # wall time, no CPU: another thread held the interpreter lock
            assert await minds.decide(player.decide, None) == loop_thread
            player.pause = 0.0
            assert await minds.decide(player.decide, None) == loop_thread  # the very next one too
        finally:
            minds.close()

    asyncio.run(run())
