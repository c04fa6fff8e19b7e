"""The tests' own table socket (``helpers.Socket``): a message that never comes fails the test in bounded time."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from .helpers import Socket, create_table, me_and_bots, pick, receive_within


def test_a_read_that_gets_nothing_fails_in_its_time_and_loses_no_later_message(client: TestClient) -> None:
    seated = create_table(client, "neuf", me_and_bots(["S", "W", "E"], "S"))
    with Socket(client, seated["table"]["id"], "S", seated["token"]) as ann:
        state = ann.my_turn()  # the table waits for Ann: nothing more comes until she moves
        with pytest.raises(AssertionError, match="no message came on the socket in 0 s"):
            receive_within(ann.ws, 0.3)
        # the read given up took nothing from the socket: her move's state still comes
        ann.send({"type": "act", "seq": state["seq"], "action": pick(state)})
        assert ann.receive()["seq"] > state["seq"]
