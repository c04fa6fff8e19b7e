"""Attack: many sockets of one address, each within its own message rate, on a real uvicorn server.

Found by the attack pass (``benchmarks/api_flood.py --kind links`` and ``--kind pace``, real ``nines serve``):
each socket may send 20 messages a second, and an address may open 40 sockets.  36 seated sockets of one
address (three at each of twelve tables), each asking for a device link or setting the computer players'
pace 19 times a second, wrote 680 rows a second (each a transaction) and kept the server's core 85 to 92%
busy, on SQLite and on PostgreSQL.  Now an address's sockets share a second bound,
``Limits.messages_per_address`` (100 a second, all together): a message over it is refused, and not done.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from nines.server.guard.limits import Limits

from .test_attack_readers import BOUND_S, serving

TOGETHER = 10


def _answers(socket: Any, count: int) -> list[dict[str, Any]]:
    answers = []
    while len(answers) < count:
        message = json.loads(socket.recv(timeout=BOUND_S))
        if message["type"] in ("device_link", "error"):
            answers.append(message)
    return answers


@pytest.mark.databases
def test_the_sockets_of_one_address_share_a_message_rate(database_url: str) -> None:
    with serving(database_url, Limits(messages_per_address=TOGETHER, messages_per_second=1000)) as (port, _app):
        seats = {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"}, "E": {"kind": "open"}}
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "neuf", "seats": seats}, timeout=30).json()
        url = f"ws://127.0.0.1:{port}/ws/tables/{created['table']['id']}"
        hello = json.dumps({"type": "hello", "seat": created["seat"], "token": created["token"]})
        with contextlib.ExitStack() as opened:
            sockets = [opened.enter_context(connect(url, open_timeout=BOUND_S)) for _ in range(3)]
            for socket in sockets:
                socket.send(hello)
            started = time.monotonic()
            for _ in range(10):
                for socket in sockets:
                    socket.send(json.dumps({"type": "device_link"}))
            elapsed = time.monotonic() - started
            answers = [answer for socket in sockets for answer in _answers(socket, 10)]
            links = [a for a in answers if a["type"] == "device_link"]
            refused = [a for a in answers if a["type"] == "error"]
            # each socket is well within its own rate; together they are not
            assert len(links) <= TOGETHER * (math.floor(elapsed) + 1), (len(links), elapsed)
            assert refused and all(a["code"] == "limit" and a["key"] == "server.limit_address_messages"
                                   and a["params"] == {"count": TOGETHER} for a in refused), refused[:3]
            assert f"more than {TOGETHER} messages in the last second, together" in refused[0]["message"]
            # another address's socket is not counted with them
            with connect(url, open_timeout=BOUND_S, source_address=("127.0.0.2", 0)) as other:
                other.send(hello)
                other.send(json.dumps({"type": "device_link"}))
                assert _answers(other, 1)[0]["type"] == "device_link"
