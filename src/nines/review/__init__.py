"""Review a game record: what each card played cost, with the exact solver.

For each deal of a trick-taking game the deal is rebuilt with the rules engine
(:mod:`.rebuild`) and every card played is scored from the position just before it, every
hand known (:mod:`.cards`): ``best`` is what the seat's side -- or the seat alone in
three-player Le Neuf and the four-alone form -- could still take with its best card,
``got`` what it can after the card played, ``cost = best - got``.  Le Neuf's exchange
decisions (:mod:`.exchange`) and Elyigit's contracts (:mod:`.contract`) are reviewed the
same way.  Rummy has no solver: each discard is compared with the expert computer
player's (:mod:`.discards`), an opinion rather than a proof.

Pure: no web, no disk, no clock.  The JSON form is in docs/review.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games.contract import Reason
from .cards import review_cards
from .contract import review_contract
from .discards import review_discards
from .exchange import review_exchange
from .model import (
    MEASURE,
    OPINION,
    ContractReview,
    DealReview,
    DiscardReview,
    ExchangeReview,
    PlayReview,
    RecordReview,
    SeatTotal,
)
from .rebuild import ReviewError, rebuild_deal, record_options, trick_game
from .solving import DEFAULT_BUDGETS, Budget, Solvers, budget_for

__all__ = [
    "DEFAULT_BUDGETS",
    "MEASURE",
    "OPINION",
    "ContractReview",
    "DealReview",
    "DiscardReview",
    "ExchangeReview",
    "PlayReview",
    "RecordReview",
    "ReviewError",
    "SeatTotal",
    "Solvers",
    "review_deal",
    "review_record",
]


def review_deal(
    game: str,
    options: Any,
    deal: Mapping[str, Any],
    *,
    max_nodes: int | str | None = "default",
    solvers: Solvers | None = None,
) -> DealReview:
    """Review one deal record of ``neuf`` or ``elyigit`` played under ``options``.

    ``max_nodes`` is the deal's node budget: ``"default"`` limits only the four-alone form
    (:data:`DEFAULT_BUDGETS`), ``None`` never limits.  Give ``solvers`` to reuse solvers
    (and their memory) from deal to deal in one thread.
    """
    rebuilt = rebuild_deal(game, options, deal)
    pool = solvers or Solvers()
    budget = Budget(budget_for(rebuilt.form, max_nodes))
    # the exchange and the contract first: their last search is the deal as played, whose
    # knowledge the solver then carries into the cards
    exchange = review_exchange(rebuilt, pool, budget)
    contract = review_contract(rebuilt, pool, budget)
    plays = review_cards(rebuilt, pool, budget)
    notes: list[str] = []
    if rebuilt.stopped_early:
        notes.append(Reason(
            "review.stopped_early",
            f"play stopped after trick {rebuilt.plays[-1].trick} of {rebuilt.tricks_in_deal}; "
            "the values still count every trick to the end of the deal, as if it were played out",
            trick=rebuilt.plays[-1].trick, tricks=rebuilt.tricks_in_deal,
        ))
    if rebuilt.unscorable:
        notes.append(rebuilt.unscorable)
    unscored = sum(1 for play in plays if not play.scored)
    if unscored and not rebuilt.unscorable:
        notes.append(Reason(
            "review.unscored",
            f"{unscored} of {len(plays)} card(s) not scored: the search of the deal stopped at its node budget "
            f"of {budget.total:,} nodes; those cards are marked unscored rather than guessed",
            n=unscored, cards=len(plays), nodes=budget.total,
        ))
    trump: str | None = "NT" if rebuilt.trump is None else rebuilt.trump.value
    if game == "elyigit" and rebuilt.contract is None:
        trump = None
        notes.append(Reason("review.thrown_in", "thrown in: nobody bid, no card was played"))
    return DealReview(
        number=rebuilt.number,
        game=game,
        form=rebuilt.form,
        trump=trump,
        plays=plays,
        exchange=exchange,
        contract=contract,
        seat_order=tuple(options.seats),
        budget=budget.total,
        nodes=budget.used,
        notes=tuple(notes),
    )


def review_record(
    record: Mapping[str, Any],
    deal: int | None = None,
    *,
    max_nodes: int | str | None = "default",
    solvers: Solvers | None = None,
) -> RecordReview:
    """Review every deal of a record (or deal number ``deal`` only)."""
    game, options = record_options(record)
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise ReviewError("the record has no deals")
    numbers = [d.get("number", i + 1) if isinstance(d, Mapping) else i + 1 for i, d in enumerate(deals)]
    if deal is not None and deal not in numbers:
        raise ReviewError(f"the record has no deal {deal}; its deals are {numbers[0]} to {numbers[-1]}")
    chosen = [(i, d) for i, d in enumerate(deals) if deal is None or numbers[i] == deal]
    if not trick_game(game):
        return RecordReview(game, tuple(review_discards(record, i, options) for i, _ in chosen))
    pool = solvers or Solvers()
    reviews = tuple(review_deal(game, options, d, max_nodes=max_nodes, solvers=pool) for _, d in chosen)
    return RecordReview(game, reviews)
