"""Rummy's discards, each compared with the card the expert computer player would throw.

Rummy has no exact solver, so this is the computer's opinion, not a proof: from the
position just before each discard, the expert player (:mod:`nines.bots.expert_rummy`)
decides from what the seat could see; where it would first lay or extend, those plays
are made on a copy until it discards.  Its opponent sampling is seeded from the deal and
the turn, so the same record always gets the same opinion.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots import make_player
from ..games import get_game
from ..games.contract import GameState, RulesError
from ..games.rummy import Discard
from .model import DealReview, DiscardReview
from .rebuild import ReviewError

__all__ = ["review_discards", "review_rummy_deal"]

TURN_LIMIT = 20
"""Set plays the expert may make before its discard (far more than any turn needs)."""


def _expert_discard(state: GameState, seat: str, seed: int) -> tuple[Any, str]:
    """The expert's discard from ``state`` (a copy is played on) and its first action's words."""
    expert = make_player("expert", "rummy", random.Random(seed))
    line = state.clone()
    first = ""
    deal = line.deal.number
    for _ in range(TURN_LIMIT):
        if line.is_over or line.deal.number != deal or line.to_act != seat:
            break
        action = expert.decide(line.view(seat)).action
        first = first or str(action)
        if isinstance(action, Discard):
            return action.card, first
        line.apply(action)
    return None, first or "no move"


def review_discards(record: Mapping[str, Any], index: int, options: Any) -> DealReview:
    """Deal ``index`` (0-based) of a rummy record: every discard against the expert's."""
    deals = record["deals"]
    if deals[index].get("preset"):
        raise ReviewError(f"deal {deals[index].get('number', index + 1)} began from a preset hand and cannot be dealt again from the seed")
    return review_rummy_deal(get_game("rummy").new_match(options, int(record.get("seed", 0))), deals, index)


def review_rummy_deal(start: GameState, deals: Sequence[Mapping[str, Any]], index: int) -> DealReview:
    """Deal ``index`` (0-based): ``start`` is the match as dealt (it is played on), ``deals`` the
    deal records up to that one; every discard of that deal against the expert's."""
    state = start
    number = int(deals[index].get("number", index + 1))
    reviews: list[DiscardReview] = []
    turn = 0
    for k, deal in enumerate(deals[: index + 1]):
        for step, entry in enumerate(deal.get("actions", []), start=1):
            where = f"deal {deal.get('number', k + 1)}, action {step}"
            try:
                action = state.action_from_record(entry)
                seat = state.to_act
                if seat is None or entry.get("seat") != seat:
                    raise ReviewError(f"{where}: the record says {entry.get('seat')} acted but {seat or 'nobody'} was to act")
                if k == index and isinstance(action, Discard):
                    turn += 1
                    expert, words = _expert_discard(state, seat, number * 1000 + turn)
                    reviews.append(DiscardReview(turn, seat, action.card, expert, words))
                state.apply(action)
            except RulesError as error:
                raise ReviewError(f"{where}: {error}") from None
            except (KeyError, TypeError) as error:
                raise ReviewError(f"{where}: malformed action entry ({error})") from None
    return DealReview(number=number, game="rummy", form="rummy", trump=None, discards=tuple(reviews))
