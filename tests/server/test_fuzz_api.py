"""The whole HTTP API fuzzed from its OpenAPI schema (schemathesis): no generated request gets a 500.

Each operation gets a bounded number of generated requests (valid and invalid bodies, odd path
and header values) so the suite stays fast.  The probe of issue 14 found 500s this way: a NUL in
a path on PostgreSQL, a non-ASCII invitation, names the database or the compare refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from starlette.testclient import TestClient

from nines.server import ServerConfig, create_app
from nines.server.guard.limits import Limits

EXAMPLES = 25
"""Generated requests per operation and database: enough to hit odd text in every field, quick on 2 cores."""


@pytest.fixture
def fuzzed_app(database_url: str) -> Iterator[TestClient]:
    # computer players wait 5 s before moving: a generated table does not start playing in the background
    config = ServerConfig(database_url=database_url, bot_delay_ms=5000, log_json=False, limits=Limits(tables_per_minute=1000, live_tables_per_address=1000))
    with TestClient(create_app(config), raise_server_exceptions=True) as client:
        yield client


# the schema as the app publishes it at /api/openapi.json (building the app connects to nothing)
SCHEMA = schemathesis.openapi.from_dict(create_app(ServerConfig(database_url="sqlite://")).openapi())
OPERATIONS = [operation.ok() for operation in SCHEMA.get_all_operations()]


def _send(client: TestClient, case: Any) -> Any:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    client.cookies.clear()
    client.cookies.update(kwargs.get("cookies") or {})
    return client.request(
        kwargs["method"], kwargs["url"], params=kwargs.get("params"), headers=kwargs.get("headers"),
        json=kwargs.get("json"), content=kwargs.get("data"),
    )


@pytest.mark.databases  # SQLite and PostgreSQL (which refuses a NUL in text: once a 500)
@pytest.mark.parametrize("operation", OPERATIONS, ids=[f"{op.method.upper()} {op.path}" for op in OPERATIONS])
def test_no_generated_request_gets_a_server_error(operation: Any, fuzzed_app: TestClient) -> None:
    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def no_500(case: Any) -> None:
        response = _send(fuzzed_app, case)
        assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:300]}"

    no_500()


def test_the_fuzzing_reaches_every_operation() -> None:
    operations = {f"{op.method.upper()} {op.path}" for op in OPERATIONS}
    assert {"POST /api/tables", "GET /api/tables/{table_id}", "POST /api/tables/{table_id}/join",
            "GET /api/people/{name}/stats", "POST /api/people"} <= operations
