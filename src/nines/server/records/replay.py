"""Finished matches: the record to download, and each deal frame by frame for the replay.

Only a finished match is shown whole: until then its record holds every hidden card.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ...games.contract import Reason, plain
from ..tables.table import Table, TableError
from ..wire.messages import ErrorCode


def _require_over(table: Table) -> None:
    if not table.state.is_over:
        raise TableError(ErrorCode.FORBIDDEN, Reason("server.replay_after", "the record and the replay open when the match is over "
                                                     "(they show every hand)"))


def players_of(table: Table) -> dict[str, str]:
    return table.players()


def match_record(table: Table) -> dict[str, Any]:
    """The ``nines-record/1`` of a finished match, with who played each seat."""
    _require_over(table)
    return table.final_record()


def _frame(state: Any, seat: str | None = None, action: Any = None) -> dict[str, Any]:
    hands = {s: plain(getattr(state.view(s), "hand", ())) for s in state.seats}
    # what was hidden during play is shown in the replay of a finished match: Le Neuf's set-aside hand
    centre = getattr(getattr(state, "deal", None), "centre", None)
    if centre is not None:
        hands["centre"] = plain(centre)
    return {
        "view": state.view(None).to_dict(),
        "hands": hands,
        "seat": seat,
        "action": None if action is None else str(action),
    }


def deal_frames(table: Table, number: int) -> dict[str, Any]:
    """Deal ``number`` (1-based) of a finished match: the position before each action and after the last."""
    _require_over(table)
    deals = table.state.record()["deals"]
    if not 1 <= number <= len(deals):
        raise TableError(ErrorCode.NOT_FOUND, Reason("server.deal_range", f"this match has deals 1 to {len(deals)}", deals=len(deals)))
    start = sum(len(d.get("actions", [])) for d in deals[: number - 1])
    count = len(deals[number - 1].get("actions", []))
    state = table.spec.new_match(table.spec.options_from_record(table.options), table.source)
    for _seat, action in table.state.log[:start]:
        state.apply(action)
    frames = [_frame(state)]
    for seat, action in table.state.log[start : start + count]:
        state.apply(action)
        frames.append(_frame(state, seat, action))
    return {"deal": number, "deals": len(deals), "record": deals[number - 1], "frames": frames}


MOST_REPLAYING = 4
"""Replays being worked out or waiting at once, server-wide; beyond that a replay asked for is refused
(``limit``), to be asked again in a moment."""


class ReplayFrames:
    """Deal frames of finished matches, worked out off the event loop and kept (a bounded cache).

    Replaying a long match takes seconds (a 7,812-action rummy match: 5.6 s; the last of a 171-deal Le Neuf
    match, 0.3 s and 787 kB), so it runs in a thread of its own, one replay at a time: that is safe because a
    finished match's state never changes again.  In the default pool, one address asking for 16 deals of a
    long match at once (within its reads a minute) held the threads every database call waits for: ``/health``
    answered in 2 s (its ping timed out) and the server's core was 134% busy.  Each (table, deal) is worked out
    once while it stays among the ``size`` most recently asked for (asked twice at once, once), and no more
    than :data:`MOST_REPLAYING` are worked out or wait at once.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], Future[dict[str, Any]]] = OrderedDict()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nines-replay")

    async def get(self, table: Table, number: int) -> dict[str, Any]:
        key = (table.id, number)
        if key not in self._kept:
            async with table.lock:
                _require_over(table)  # from here on the table's state is never changed again
            if key not in self._kept:
                busy = sum(1 for frames in self._kept.values() if not frames.done())
                if busy >= MOST_REPLAYING:
                    raise TableError(ErrorCode.LIMIT, Reason("server.replay_busy", f"{busy} replays are being worked out just "
                                                             "now; ask again in a moment", count=busy))
                self._kept[key] = self._thread.submit(deal_frames, table, number)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        frames = self._kept[key]  # the newest kept, if it was not kept already
        self._kept.move_to_end(key)
        try:
            return await asyncio.wrap_future(frames)
        except Exception:
            self._kept.pop(key, None)  # a deal the match does not have: nothing to keep
            raise
