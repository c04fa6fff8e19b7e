"""Test settings shared by the whole suite."""

import os

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
