"""Waiting for a condition, never for a length of time (issue 27: no test depends on the machine).

A test that needs something to have happened polls for it until a generous deadline: on a fast machine the
wait ends at once, on a loaded one it lasts as long as it must, and the deadline is a bound on failure only.
A fixed sleep assumes that the thing happened by then, and a count of event-loop turns that it takes so many:
both fail on a machine busy enough, or pass there without checking anything.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEADLINE_S = 30.0
"""How long a wait may last before the test fails (a bound on failure only: a loaded 2-core machine is slow)."""


def wait_until(predicate: Callable[[], T], timeout: float = DEADLINE_S, what: str = "the condition",
               every: float = 0.02) -> T:
    """Call ``predicate`` until it returns something true, and return that; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


async def until(predicate: Callable[[], T], within: float = DEADLINE_S, what: str = "the condition",
                every: float = 0.005) -> T:
    """:func:`wait_until` on an event loop: polls between ``asyncio.sleep`` calls, so the loop's tasks and
    callbacks run meanwhile (``within``: the deadline, in seconds)."""
    deadline = time.monotonic() + within
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {within:.0f} s waiting for {what}")
        await asyncio.sleep(every)
