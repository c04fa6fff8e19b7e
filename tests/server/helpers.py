"""Helpers for driving the real app over HTTP and WebSocket in tests."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any, Self

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

from nines.server.wire import delta


def another_browser(client: TestClient) -> TestClient:
    """Another browser on the same running app: a cookie jar of its own, the app's own event loop.

    A second ``TestClient`` left to itself runs each request on an event loop of its own: a request that waits
    for something of the app's loop (a table's lock another task holds) is then woken from the wrong loop and
    hangs for ever (``test_a_seat_link_not_opened_in_time_seats_nobody`` hung so in a whole-suite run)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


RECEIVE_WITHIN_S = 60.0
"""How long a test's socket waits for the next message before the test fails (a bound on a hang, not a speed goal:
without it a message that never comes held the test until the suite's 300 s timeout killed its worker, and the
failure said nothing of where it waited)."""


async def _next_message(stream: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):  # a cancelled receive takes nothing from the stream
        return await stream.receive()


def receive_within(ws: WebSocketTestSession, seconds: float = RECEIVE_WITHIN_S) -> str:
    """The next text the app sends this socket; ``AssertionError`` if none comes in ``seconds`` (starlette's own
    ``receive_text`` waits for ever)."""
    try:
        message = ws.portal.call(_next_message, ws._send_rx, seconds)  # the session's own stream (private: starlette is locked)
    except TimeoutError:
        raise AssertionError(f"no message came on the socket in {seconds:.0f} s") from None
    ws._raise_on_close(message)  # a close raises WebSocketDisconnect, as receive_text does
    return message["text"]  # type: ignore[no-any-return]


def create_table(client: TestClient, game: str, seats: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def me_and_bots(seats: list[str], me: str | None, bot: str = "basic") -> dict[str, Any]:
    return {s: ({"kind": "me"} if s == me else {"kind": "bot", "bot": bot}) for s in seats}


def state_of(client: TestClient, table_id: str, seat: str | None = None, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Nines-Seat": seat, "X-Nines-Token": token} if seat else {}
    response = client.get(f"/api/tables/{table_id}/state", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(client: TestClient, table_id: str, predicate: Callable[[dict[str, Any]], bool], seat: str | None = None,
             token: str | None = None, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the table's state until ``predicate`` holds (computer players move in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        state = state_of(client, table_id, seat, token)
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last state seq {state['seq']}, status {state['table']['status']}")
        time.sleep(0.02)


class Socket:
    """A table socket: says hello, then reads messages, keeping the last state it saw."""

    def __init__(self, client: TestClient, table_id: str, seat: str | None = None, token: str | None = None,
                 *, cookies: bool = False) -> None:
        # without a seat the socket is a spectator's, even if this client holds a seat cookie,
        # unless ``cookies`` asks for a browser's hello (authenticated by the seat cookie)
        headers = {} if cookies or seat is not None else {"cookie": "nines_spectator=1"}
        self._cm = client.websocket_connect(f"/ws/tables/{table_id}", headers=headers)
        self.ws = self._cm.__enter__()
        hello: dict[str, Any] = {"type": "hello"}
        if seat is not None:
            hello.update(seat=seat, token=token)
        self.ws.send_text(json.dumps(hello))
        self.state: dict[str, Any] | None = None
        self.raw = ""  # the last message as it came
        self.patch_sizes: list[int] = []  # bytes of every patch received
        self.patch_ended_deal: list[bool] = []  # for each patch: did it end a deal (a whole new hand, or the match over)?
        self._moved_at = -1  # the seq of the last state this socket acted on

    def close(self) -> None:
        self._cm.__exit__(None, None, None)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: dict[str, Any] | str) -> None:
        if isinstance(message, dict) and message.get("type") == "act":
            self._moved_at = message["seq"]
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self) -> dict[str, Any]:
        """The next message; a ``patch`` is applied to the last state and returned as the whole new state."""
        try:
            self.raw = receive_within(self.ws)
        except AssertionError as waited:
            held = "nothing" if self.state is None else f"seq {self.state['seq']}, rev {self.state.get('rev')}"
            raise AssertionError(f"{waited} (this socket held {held})") from None
        message = json.loads(self.raw)
        if message["type"] == "patch":
            self.patch_sizes.append(len(self.raw))
            before = deal_and_status(self.state)
            message = follow_patch(self.state, message)
            self.patch_ended_deal.append(deal_and_status(message) != before)
        if message["type"] == "state":
            self.state = message
        return message

    def receive_until(self, predicate: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.receive()
            if predicate(message):
                return message
        raise AssertionError("the expected message never came")

    def next_state(self) -> dict[str, Any]:
        return self.receive_until(lambda m: m["type"] == "state")

    def my_turn(self) -> dict[str, Any]:
        """The state in which this seat has a move to make (or the match is over), reading on if need be."""

        def ready(m: dict[str, Any]) -> bool:
            return m["type"] == "state" and m["seq"] != self._moved_at and (
                bool(m["view"]["legal"]) or m["table"]["status"] == "over"
            )

        if self.state is not None and ready(self.state):
            return self.state
        return self.receive_until(ready)


def deal_and_status(state: dict[str, Any] | None) -> tuple[Any, Any]:
    """Which deal a state shows and whether its match is on: when either changes, so does most of the view."""
    state = state or {}
    return state.get("view", {}).get("deal_number"), state.get("table", {}).get("status")


def follow_patch(state: dict[str, Any] | None, patch: dict[str, Any]) -> dict[str, Any]:
    """The state a patch makes of the state it starts from (as the browser's delta.js does)."""
    assert state is not None and patch["base"] == state["rev"], f"a patch from rev {patch['base']} to a socket at {state and state['rev']}"
    body = delta.apply({k: v for k, v in state.items() if k not in ("type", "rev")}, patch["changes"])
    return {"type": "state", **body, "rev": patch["rev"]}


def pick(state: dict[str, Any]) -> str:
    """A move for a person's seat chosen from the legal list the client received (repeatable: seeded by seq)."""
    return random.Random(state["seq"]).choice(state["view"]["legal"])
