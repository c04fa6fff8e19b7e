"""Test settings shared by the whole suite."""

import os

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

