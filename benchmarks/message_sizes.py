"""What a socket receives after each move, early and late in a long match: the whole state (what the
server used to send after every move) against the patch it sends now.

Plays one long match of each game in-process (the real app through Starlette's test client, a person's
seat played by a seeded random choice, computer players ``basic`` with no pause) and prints the bytes a
seated socket received per move, as medians over the first and the last moves.

    python benchmarks/message_sizes.py [--moves 400]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`", category=Warning)
from starlette.testclient import TestClient

from nines.server import ServerConfig, create_app
from nines.server.wire import delta

MATCHES = [
    ("neuf", ["S", "W", "E"], {}),
    ("elyigit", ["N", "E", "S", "W"], {}),
    ("rummy", ["1", "2", "3"], {"options": {"players": 3}}),
]


def measure(client: TestClient, game: str, seats: list[str], extra: dict[str, Any], moves: int) -> dict[str, Any]:
    body = {"game": game, "seats": {s: {"kind": "me"} if i == 0 else {"kind": "bot", "bot": "basic"}
                                    for i, s in enumerate(seats)}, "bot_delay_ms": 0, **extra}
    created = client.post("/api/tables", json=body).json()
    table_id, me, token = created["table"]["id"], created["seat"], created["token"]
    whole: list[int] = []  # bytes of the whole state after each change
    patches: list[int] = []  # bytes of the patch for the same change
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": me, "token": token}))
        state: dict[str, Any] = {}
        pending = -1
        while len(patches) < moves:
            text = ws.receive_text()
            message = json.loads(text)
            if message["type"] == "patch":
                body_ = delta.apply({k: v for k, v in state.items() if k not in ("type", "rev")}, message["changes"])
                state = {"type": "state", **body_, "rev": message["rev"]}
                patches.append(len(text))
                whole.append(len(json.dumps(state, separators=(",", ":"))))
            elif message["type"] == "state":
                state = message
            else:
                continue
            if state["table"]["status"] == "over":
                break
            legal = state["view"]["legal"]
            if legal and state["seq"] != pending:
                pending = state["seq"]
                action = random.Random(state["seq"]).choice(legal)
                ws.send_text(json.dumps({"type": "act", "seq": state["seq"], "action": action}))
    n = max(1, min(20, len(patches) // 4))
    return {
        "game": game, "moves": len(patches),
        "whole_early": statistics.median(whole[:n]), "whole_late": statistics.median(whole[-n:]),
        "patch_early": statistics.median(patches[:n]), "patch_late": statistics.median(patches[-n:]),
        "patch_worst": max(patches),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="changes to follow in each match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(database_url=f"sqlite:///{Path(folder) / 'nines.db'}", bot_delay_ms=0, log_json=False)
        with TestClient(create_app(config)) as client:
            print(f"{'game':8} {'moves':>5}  {'whole state, early/late':>24}  {'patch, early/late (worst)':>26}")
            for game, seats, extra in MATCHES:
                r = measure(client, game, seats, extra, args.moves)
                print(f"{r['game']:8} {r['moves']:>5}  {r['whole_early']:>10.0f} B {r['whole_late']:>9.0f} B"
                      f"  {r['patch_early']:>8.0f} B {r['patch_late']:>7.0f} B ({r['patch_worst']} B)")


if __name__ == "__main__":
    main()
