"""Each person's results: every finished deal and every finished match, kept for their statistics.

Counted as the match goes (a deal when it ends, the match when it is over), once each, for
the people at the table (not computer players, not solo practice).  Decisions a stand-in made
for a person are counted apart, per deal.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ..store.database import Store
from ..store.people import DealStat, MatchStat
from ..tables.table import Table
from . import fronts

__all__ = ["Due", "count_results", "counted_elsewhere", "deal_starts", "results_due", "write_results"]


@dataclass(frozen=True)
class Due:
    """Statistics worked out and marked counted on the table, not written yet (:func:`write_results`)."""

    deals: list[DealStat]
    matches: list[MatchStat]
    counted_before: int  # the table's deals counted before these (counted again if their write fails)


async def count_results(store: Store, table: Table) -> None:
    """Keep each person's statistics: every finished deal, and the match once it is over.
    Decisions a stand-in made for a person are counted apart (``stand_in`` per deal)."""
    due = results_due(table)
    if due is not None:
        await write_results(store, table, due)


def counted_elsewhere(table: Table) -> None:
    """Mark the table's finished deals (and its match, once over) counted without writing them: the moves that
    finished them were made by another process, which wrote their statistics before it told this one
    (``following.py``).  Counted here too, every statistic was written twice and the match's record built for it."""
    number = table.deal_number()
    if number is not None and not table.state.is_over:
        table.deals_counted = max(table.deals_counted, number - 1)  # as results_due reads it: the deals before this one
        return
    results_due(table)  # the match's end (once), or a game without deal numbers: marked counted, and not written


def results_due(table: Table) -> Due | None:
    """The statistics the table's state has that are not counted yet, marked counted (at once, on the event
    loop, from the state as it is now: a count running meanwhile does not take them again); ``None`` when
    there are none (most moves)."""
    people = {s.seat: s.person for s in table.seats.values() if s.kind == "human" and s.person}
    if not people or table.practice:  # solo practice from a chosen seed does not count
        return None
    state = table.state
    number = table.deal_number()
    if number is not None and number - 1 <= table.deals_counted and not (state.is_over and not table.match_counted):
        return None
    record = table.record_now()
    deals = fronts.finished_deals(record)
    new = deals[table.deals_counted:]
    starts = deal_starts(record)
    stats = []
    for deal in new:
        number = int(deal.get("number", 0))
        first = starts.get(number, 0)
        seqs = range(first + 1, first + len(deal.get("actions", [])) + 1)
        for seat, person in people.items():
            outcome = fronts.deal_outcome(state, record, deal, seat)
            stood_in = sum(1 for q in seqs if table.stand_ins.get(q) == seat)
            stats.append(DealStat(table.id, number, seat, person, table.spec.id, **outcome.__dict__, stand_in=stood_in))
    counted, table.deals_counted = table.deals_counted, len(deals)
    matches = []
    if state.is_over and not table.match_counted:
        table.match_counted = True
        matches = [MatchStat(table.id, seat, person, table.spec.id, fronts.match_won(record, seat)) for seat, person in people.items()]
    if not stats and not matches:
        return None
    return Due(stats, matches, counted)


async def write_results(store: Store, table: Table, due: Due) -> None:
    """Write what :func:`results_due` found; if a write fails, its statistics are uncounted (the table's next
    count writes them: storing twice is harmless) and the error is raised."""
    if due.deals:
        try:
            await asyncio.to_thread(store.add_deal_stats, due.deals)
        except BaseException:
            table.deals_counted = min(table.deals_counted, due.counted_before)
            raise
    if due.matches:
        try:
            await asyncio.to_thread(store.add_match_stats, due.matches)
        except BaseException:
            table.match_counted = False
            raise


def deal_starts(record: dict[str, Any]) -> dict[int, int]:
    """For each deal number, how many actions the match had before it."""
    starts, before = {}, 0
    for deal in record.get("deals", []):
        starts[int(deal.get("number", 0))] = before
        before += len(deal.get("actions", []))
    return starts
