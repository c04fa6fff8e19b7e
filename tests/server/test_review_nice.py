"""Reviews are background work: their threads run at a lower priority than the tables in play."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from nines.server.records.review import REVIEW_NICENESS, Reviews


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads have their own priority on Linux")
def test_review_threads_yield_to_the_tables_in_play() -> None:
    reviews = Reviews()
    try:
        mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        theirs = reviews._pool.submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())).result()
        assert theirs == min(19, mine + REVIEW_NICENESS)
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine  # the server's own thread unchanged
    finally:
        reviews._pool.shutdown()
