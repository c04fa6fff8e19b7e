"""Finished matches: the record to download, and each deal frame by frame for the replay.

Only a finished match is shown whole: until then its record holds every hidden card.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from ..games.contract import Reason, plain
from .messages import ErrorCode
from .table import Table, TableError


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


class ReplayFrames:
    """Deal frames of finished matches, worked out off the event loop and kept (a bounded cache).

    Replaying a long match takes seconds (a 7,812-action rummy match: 5.6 s), so it runs in a worker
    thread; that is safe because a finished match's state never changes again.  Each (table, deal) is
    worked out once while it stays among the ``size`` most recently asked for.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def get(self, table: Table, number: int) -> dict[str, Any]:
        key = (table.id, number)
        frames = self._kept.get(key)
        if frames is not None:
            self._kept.move_to_end(key)
            return frames
        async with table.lock:
            _require_over(table)  # from here on the table's state is never changed again
        frames = await asyncio.to_thread(deal_frames, table, number)
        self._kept[key] = frames
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return frames
