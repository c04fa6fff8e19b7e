"""Test settings shared by the whole suite."""

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Property tests are seeded and repeatable: CI and every developer see the same examples.
settings.register_profile(
    "nines",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("NINES_HYPOTHESIS_EXAMPLES", "200")),
)
settings.load_profile("nines")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (``slow``, then ``browser``), each group in the order collected (or drawn, with
    pytest-randomly): test workers take tests in this order, and a long test started last kept one worker busy
    for a minute after the others had finished.  The order says nothing else: every test stands alone."""
    def group(item: pytest.Item) -> int:
        return 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2

    items.sort(key=group)  # stable: within a group, the order pytest (or pytest-randomly) gave


BROWSER_TESTS = "tests/web/"


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """How pytest-xdist hands tests to its workers: one at a time, in the order above, except that a browser test
    module is one unit: one worker runs its tests in turn, with one browser and the contexts it keeps between them
    (tests/web/conftest.py: a fresh context costs Chromium about 0.85 s of CPU).  pytest-xdist's own
    ``--dist loadgroup`` would do it with markers, but its mark on the test's id is lost on pytest 9."""
    from xdist.scheduler import LoadScopeScheduling

    class BrowserModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.startswith(BROWSER_TESTS) else nodeid

    config.option.loadscopereorder = False  # units in the order collected (the longest tests first), not by size
    return BrowserModulesTogether(config, log)
