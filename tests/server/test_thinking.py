"""Where computer players think: quick kinds of players on the event loop, slow ones in threads."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from nines.server.tables import thinking
from nines.server.tables.thinking import QUICK_IN_A_ROW, QUICK_S, SLOW_ON_LOOP_S, THINKING_NICENESS, Thinkers, Thinking


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


def _searcher_after_three_moves() -> tuple[Any, Any, Any]:
    """Two copies of the same Le Neuf ismcts player (the same generator) and the view of the seat to act after a few
    moves of a seeded match."""
    from nines.bots import make_player
    from nines.games import get_game

    state = get_game("neuf").new_match(seed=7)
    players = {seat: make_player("basic", "neuf") for seat in state.seats}
    for _ in range(3):
        seat = state.acting_seat
        state.apply(players[seat].decide(state.view(seat)).action, by=seat)
    seat = state.acting_seat
    here, there = (make_player("ismcts", "neuf", random.Random(11)) for _ in range(2))
    return here, there, state.view(seat)


def test_a_player_thinking_in_a_worker_process_decides_as_it_would_here_and_comes_back_as_it_would_be() -> None:
    """Processes: the player travels with its view and returns with its state (its generator moved on), so it
    plays exactly as in a thread: a challenge's computer players meet the same moves with the same answers."""
    here, there, view = _searcher_after_three_moves()

    async def run() -> None:
        minds = Thinking(threads=1, processes=True)
        assert minds.thinkers is not None
        try:
            for turn in range(3):  # the first in a thread (measured), then in a worker, from the state the last one left
                expected = here.decide(view)
                decision = await minds.decide(there.decide, view)
                assert str(decision.action) == str(expected.action)
                assert decision.reason == expected.reason
                assert there.rng.getstate() == here.rng.getstate()  # the generator moved on as here
                assert (minds.thinkers._pool is not None) == (turn > 0)
        finally:
            minds.close()

    asyncio.run(run())


def test_quick_players_start_no_thinking_process() -> None:
    """A kind of player is measured in a thread first: the rule-based players (quick) never start a worker, so a
    server whose tables have only them has none."""
    from nines.bots import make_player

    _here, _there, view = _searcher_after_three_moves()
    basic = make_player("basic", "neuf")

    async def run() -> None:
        minds = Thinking(threads=1, processes=True)
        assert minds.thinkers is not None
        try:
            for _ in range(QUICK_IN_A_ROW + 2):
                await minds.decide(basic.decide, view)
            assert minds.quick(basic.decide) and minds.thinkers._pool is None
        finally:
            minds.close()

    asyncio.run(run())


def test_thinking_processes_run_below_the_server_and_end_with_it() -> None:
    """The event loop comes first: a worker's scheduling priority is THINKING_NICENESS lower (a higher nice)."""
    async def run() -> None:
        thinkers = Thinkers(1)
        try:
            pool = thinkers.pool()  # started at the first decision, or when asked for
            nice, pid = await asyncio.get_running_loop().run_in_executor(pool, _niceness_and_pid)
            assert pid != os.getpid()
            assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + THINKING_NICENESS)
        finally:
            thinkers.close()

    asyncio.run(run())


def _niceness_and_pid() -> tuple[int, int]:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), os.getpid()


def test_a_thinking_process_that_died_fails_its_decision_and_the_next_one_gets_a_new_process() -> None:
    """A worker killed (the kernel out of memory) breaks its pool: the decision under way fails (the table's
    driver tries again) and the next decision is worked out by a new worker, not refused for ever."""
    _here, there, view = _searcher_after_three_moves()

    async def run() -> None:
        thinkers = Thinkers(1)
        try:
            _nice, pid = await asyncio.get_running_loop().run_in_executor(thinkers.pool(), _niceness_and_pid)
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(BrokenProcessPool):
                for _ in range(100):  # the pool notices the death within a decision or two
                    await thinkers.decide(there, view)
            decision, cpu = await thinkers.decide(there, view)
            assert decision.action is not None and cpu >= 0
        finally:
            thinkers.close()

    asyncio.run(run())


class Unpicklable:
    """A slow player holding something that does not pickle (a lambda): it cannot travel to a worker."""

    name = "stays"

    def __init__(self) -> None:
        self.answer = lambda: 42

    def decide(self, view: Any) -> int:
        started = time.thread_time()
        while time.thread_time() - started < QUICK_S * 2:  # slow enough to be sent away
            pass
        return os.getpid()


def test_a_player_that_cannot_travel_to_a_worker_thinks_here_instead_of_failing() -> None:
    async def run() -> None:
        minds = Thinking(threads=1, processes=True)
        player = Unpicklable()
        try:
            for _ in range(3):  # measured (slow) in a thread, refused by the pickler once, then here for good
                assert await minds.decide(player.decide, None) == os.getpid()
            assert minds._stay_here == {thinking._kind(player.decide)}
        finally:
            minds.close()

    asyncio.run(run())
