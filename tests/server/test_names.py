"""A name on every device: a one-time code (or its link) takes a name to a second browser, once, for a while;
wrong, used and expired codes are refused with their own keys, and an address tries a bounded number.

The clock the codes expire by is the app's (``app.state.clock``): these tests move it, they never wait."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from nines.server.guard.limits import Limits
from nines.server.http.names import CODE_ALPHABET, read_code

from .helpers import another_browser
from .test_refusal_words import sayable

START = dt.datetime(2026, 12, 7, 12, 0, 0, tzinfo=dt.UTC).replace(tzinfo=None)  # naive UTC, as the database keeps it


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock(client: TestClient) -> Clock:
    made = Clock()
    client.app.state.clock = made  # type: ignore[attr-defined]
    return made


@contextmanager
def limited(make_client: Callable[..., TestClient], **limits: int) -> Iterator[TestClient]:
    with make_client(limits=Limits(messages_per_second=1000, messages_per_address=0, requests_per_minute=0, **limits)) as client:
        client.app.state.clock = Clock()  # type: ignore[attr-defined]
        yield client


def holds(browser: TestClient, name: str) -> bool:
    held: bool = browser.get(f"/api/people/{name}/keys").json()["held"]
    return held


def make_code(browser: TestClient, name: str) -> str:
    made = browser.post(f"/api/people/{name}/codes")
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["url"] == f"/#take={body['code']}"
    code: str = body["code"]
    return code


@pytest.mark.databases
def test_a_code_takes_the_name_to_a_second_browser_and_both_hold_it(client: TestClient, clock: Clock) -> None:
    assert client.post("/api/people", json={"name": "Ann"}).status_code == 200
    phone = another_browser(client)
    refused = phone.post("/api/people", json={"name": "Ann"})
    assert refused.status_code == 409 and refused.json()["key"] == "server.name_owned"
    assert not holds(phone, "Ann")

    made = client.post("/api/people/Ann/codes")
    assert made.status_code == 201, made.text
    body = made.json()
    assert len(body["code"]) == 8 and set(body["code"]) <= set(CODE_ALPHABET)
    assert body["seconds"] == 600 and body["expires_at"] == "2026-12-07T12:10:00Z"

    taken = phone.post("/api/people/take", json={"code": body["code"]})
    assert taken.status_code == 200, taken.text
    assert taken.json() == {"name": "Ann"}
    # both browsers hold the name now: each plays under it, and each may take it further
    assert holds(phone, "Ann") and holds(client, "Ann")
    assert phone.post("/api/people", json={"name": "Ann"}).status_code == 200
    assert client.post("/api/people", json={"name": "Ann"}).status_code == 200
    table = phone.post("/api/tables", json={"game": "neuf", "name": "Ann",
                                            "seats": {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "bot", "bot": "basic"}}})
    assert table.status_code == 201, table.text
    assert phone.post("/api/people/Ann/codes").status_code == 201
    # the phone's secret is its own: the first browser's cookie was not copied
    first = {k: v for k, v in client.cookies.items() if k.startswith("nines_name_")}
    second = {k: v for k, v in phone.cookies.items() if k.startswith("nines_name_")}
    assert first.keys() == second.keys() and first != second


def test_a_code_works_once(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    code = make_code(client, "Ann")
    phone, laptop = another_browser(client), another_browser(client)
    assert phone.post("/api/people/take", json={"code": code}).status_code == 200
    again = laptop.post("/api/people/take", json={"code": code})
    assert again.status_code == 409
    sayable(again.json(), "server.name_code_used")
    assert again.json()["code"] == "conflict"
    assert not holds(laptop, "Ann")
    assert laptop.post("/api/people", json={"name": "Ann"}).status_code == 409


def test_a_code_expires_after_its_minutes(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    early, late = make_code(client, "Ann"), make_code(client, "Ann")
    clock.advance(minutes=9, seconds=59)
    assert another_browser(client).post("/api/people/take", json={"code": early}).status_code == 200
    clock.advance(seconds=1)
    phone = another_browser(client)
    expired = phone.post("/api/people/take", json={"code": late})
    assert expired.status_code == 403
    sayable(expired.json(), "server.name_code_expired")
    assert expired.json()["params"] == {"minutes": 10}
    assert not holds(phone, "Ann")


def test_a_wrong_code_is_refused_and_a_code_may_be_typed_loosely(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    code = make_code(client, "Ann")
    phone = another_browser(client)
    wrong = "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + 1) % len(CODE_ALPHABET)] for c in code)
    for attempt in (wrong, "ABC", "0OIL1OIL", code + "X"):
        refused = phone.post("/api/people/take", json={"code": attempt})
        assert refused.status_code == 403, attempt
        sayable(refused.json(), "server.name_code_wrong")
        assert refused.json()["type"] == "error" and refused.json()["code"] == "forbidden"
    # lower case, a dash and spaces, as a person copies it from another screen
    typed = f" {code[:4].lower()}-{code[4:]} "
    assert read_code(typed) == code
    assert phone.post("/api/people/take", json={"code": typed}).json() == {"name": "Ann"}


def test_only_a_browser_holding_the_name_makes_codes_and_a_name_has_few_waiting(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    stranger = another_browser(client)
    refused = stranger.post("/api/people/Ann/codes")
    assert refused.status_code == 403
    sayable(refused.json(), "server.name_not_held")
    codes = [make_code(client, "Ann") for _ in range(3)]
    many = client.post("/api/people/Ann/codes")
    assert many.status_code == 429
    sayable(many.json(), "server.name_codes_waiting")
    assert many.json()["params"] == {"name": "Ann", "count": 3, "minutes": 10}
    # a code used, or one expired, no longer waits
    assert another_browser(client).post("/api/people/take", json={"code": codes[0]}).status_code == 200
    make_code(client, "Ann")
    assert client.post("/api/people/Ann/codes").status_code == 429
    clock.advance(minutes=10)
    make_code(client, "Ann")


def test_an_address_tries_a_bounded_number_of_codes(make_client: Callable[..., TestClient]) -> None:
    with limited(make_client, name_tries_per_hour=3) as client:
        client.post("/api/people", json={"name": "Ann"})
        code = make_code(client, "Ann")
        guesser = another_browser(client)
        for _ in range(3):
            assert guesser.post("/api/people/take", json={"code": "22222222"}).status_code == 403
        # the fourth try is refused before the code is looked at: even the right one
        refused = guesser.post("/api/people/take", json={"code": code})
        assert refused.status_code == 429
        sayable(refused.json(), "server.limit_name_tries")
        assert refused.json()["params"] == {"count": 3}
        assert not holds(guesser, "Ann")


def test_names_that_cannot_be_are_refused_not_looked_up(client: TestClient, clock: Clock) -> None:
    for path in ("/api/people/%00Ann/codes", "/api/people/A%E2%80%AEnn/passkeys/options"):
        refused = client.post(path)
        assert refused.status_code == 422, refused.text
    assert client.get("/api/people/%00/keys").status_code == 422


def test_another_sites_page_cannot_give_its_visitor_a_name(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Mallory"})
    code = make_code(client, "Mallory")
    visitor = another_browser(client)
    refused = visitor.post("/api/people/take", json={"code": code}, headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    sayable(refused.json(), "server.name_origin")
    assert not holds(visitor, "Mallory")
    signed = visitor.post("/api/passkeys/sign-in", json={"ticket": "x" * 16, "credential": {}}, headers={"Origin": "https://evil.example"})
    assert signed.json()["key"] == "server.name_origin"
    # this site's own page (its origin is the address the request came to) takes it
    assert visitor.post("/api/people/take", json={"code": code}, headers={"Origin": "http://testserver"}).json() == {"name": "Mallory"}
