"""The HTTP API walked from its OpenAPI description's links (schemathesis's stateful phase), on SQLite and
PostgreSQL: a new table leads to its info, a seat's view, joining, moves, play again and its record, and every
answer on the way must be one the description gives (its status, its content type, its body's schema), never
a server error.

Found by the ninth round's probe: 24 conformance failures (404, 409, 429 and 400 answers the description did
not give; schema-valid requests refused, ``game: "0"`` and ``seats: {}``), and with no links the stateful phase
covered 1 of 28 inferred transitions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import positive_data_acceptance

from nines.server import ServerConfig, create_app
from nines.server.guard.limits import Limits

TABLES = ["health", "listGames", "resolveOptions", "listTables", "createTable", "tableInfo", "cancelTable", "joinTable",
          "claimSeat", "playAgain", "tableState", "tableAct", "tableRecord", "tableReplay", "tableReview", "usePerson",
          "personStats"]
"""The tables', games' and people's operations (the ninth round's)."""
STANDING = ["ratingsBoard", "tableRatings", "challengeDays", "playChallenge", "challengeStandings", "challengeDeals",
            "personProfile", "personChart", "nameKeys", "makeNameCode", "takeName", "passkeyOptions", "registerPasskey",
            "signInOptions", "signInPasskey"]
"""The ratings', the daily challenge's, the profile's and the names' operations (described in issue 29's round)."""
DESCRIBED = [*TABLES, *STANDING]
"""The operations whose every answer the description gives (their statuses, refusals and links): all of /api.  Walked
in two sets (the tables' from a new table, the others from a name and a challenge table), each walk's steps among
fewer operations, so that the links are taken."""

STEPS = 8
"""Calls in one walk (a table made, then where its links lead)."""
WALKS = 12
"""Walks per database: every link is taken in a few of them, quick on 2 cores."""


@pytest.fixture
def app(database_url: str) -> Any:
    # computer players wait 5 s before moving: a walk's table does not play on in the background
    limits = Limits(tables_per_minute=1000, live_tables_per_address=1000, requests_per_minute=0, requests_at_once=0,
                    names_per_hour=10_000, reads_per_minute=10_000)
    return create_app(ServerConfig(database_url=database_url, bot_delay_ms=5000, log_json=False, limits=limits))


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    with asgi.get_client(app) as started:  # the app's lifespan once for the whole test
        yield started


def test_the_description_links_every_step_from_a_new_table() -> None:
    spec = create_app(ServerConfig(database_url="sqlite://")).openapi()
    described = {op["operationId"] for path, ops in spec["paths"].items() if path.startswith("/api/") for op in ops.values()}
    assert described == set(DESCRIBED) - {"health"}  # every operation of /api is walked
    links = spec["paths"]["/api/tables"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} == {"tableInfo", "tableState", "joinTable", "tableAct",
                                                               "playAgain", "tableRecord", "tableRatings"}
    for path in spec["paths"].values():
        for operation in path.values():
            assert all(int(status) < 500 or status == "503" for status in operation["responses"]), operation["operationId"]


def test_the_ratings_challenge_profile_and_names_operations_are_described() -> None:
    spec = create_app(ServerConfig(database_url="sqlite://")).openapi()
    operations = {op["operationId"]: op for ops in spec["paths"].values() for op in ops.values() if "operationId" in op}
    for name in STANDING:
        operation = operations[name]
        assert operation["summary"] and operation["description"], name
        answers = operation["responses"]
        assert {"405", "422", "429"} <= set(answers), name  # every /api operation's refusals
        for status, answer in answers.items():
            if int(status) >= 400:  # in the project's shape
                assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorMessage"}, (name, status)
        ok = next(answer for status, answer in answers.items() if int(status) < 300)
        assert ok["content"], name
    assert operations["personChart"]["responses"]["200"]["content"] == {"image/svg+xml": {}}
    assert {"404", "503"} <= set(operations["playChallenge"]["responses"]) and "403" in operations["makeNameCode"]["responses"]
    links = {name: {link["operationId"] for answer in operations[name]["responses"].values() for link in answer.get("links", {}).values()}
             for name in operations}
    assert {"tableInfo", "tableState", "tableAct", "tableRecord", "challengeStandings", "challengeDeals"} <= links["playChallenge"]
    assert {"challengeStandings", "challengeDeals"} <= links["challengeDays"]
    assert "takeName" in links["makeNameCode"] and "personProfile" in links["takeName"] and "personChart" in links["personProfile"]
    assert {"personProfile", "nameKeys", "makeNameCode", "playChallenge"} <= links["usePerson"]
    assert "tableRatings" in links["createTable"]
    standings = operations["challengeStandings"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert standings["type"] == "array" and standings["items"] == {"$ref": "#/components/schemas/StandingRow"}


def _walk(app: Any, client: Any, operations: list[str], walks: int = WALKS) -> Counter[str]:
    """Stateful walks among ``operations`` (from their links), every answer checked; how often each was called."""
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app).include(operation_id=operations)
    machine = schema.as_state_machine()

    class Walk(machine):  # type: ignore[misc, valid-type]
        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            reached[case.operation.definition.raw.get("operationId", "?")] += 1

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            client.cookies.clear()  # each call a browser of its own, as a stranger would be
            return {"session": client}

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            # every check but one: a schema-valid request may still be refused (422) where JSON Schema cannot say
            # why: a name's Unicode categories (limits.check_name), each game's options (their own bounds)
            case.validate_response(response, additional_checks=additional_checks, excluded_checks=[positive_data_acceptance],
                                   transport_kwargs=kwargs or None, recorder=self.recorder)

    reached: Counter[str] = Counter()
    run_state_machine_as_test(Walk, settings=settings(max_examples=walks, stateful_step_count=STEPS, deadline=None,
                                                      database=None, derandomize=True,
                                                      suppress_health_check=list(HealthCheck)))
    print(dict(reached))
    return reached


@pytest.mark.databases
def test_stateful_walks_of_the_api_conform_to_its_description(app: Any, client: Any) -> None:
    reached = _walk(app, client, TABLES)
    # the walks went where a new table's links lead (before: no links, 1 of 28 transitions)
    assert reached["createTable"] and len(set(reached) & {"tableInfo", "tableState", "joinTable", "tableAct", "playAgain",
                                                         "tableRecord"}) >= 4, reached


@pytest.mark.databases
def test_stateful_walks_of_the_ratings_challenge_profile_and_names_conform(app: Any, client: Any) -> None:
    # from a name (usePerson) and a person's challenge table (playChallenge), where their links lead: the table,
    # the day's standings and deals, the name's profile, chart, keys, codes and passkeys (and a table's ratings)
    reached = _walk(app, client, [*STANDING, "usePerson", "createTable", "tableInfo", "tableState", "tableAct", "tableRecord"])
    # (which links a walk takes depends on the answers, which depend on timing: a bound, not a count)
    assert reached["playChallenge"] and reached["usePerson"] and len(set(reached) & set(STANDING)) >= 6, reached
