"""Game records for the review's tests: short matches played by computer players."""

from __future__ import annotations

import random
from typing import Any

from nines.bots import make_player
from nines.games import get_game
from nines.games.contract import GameState
from nines.solver import Solver, make_position


def first_deals(game: str, preset: str = "standard", seed: int = 1, deals: int = 1, player: str = "random") -> dict[str, Any]:
    """The record of a match stopped once ``deals`` deals are finished (or the match is over)."""
    spec = get_game(game)
    state = spec.new_match(spec.options(preset), seed)
    rng = random.Random(seed)
    players = {seat: make_player(player, spec.id, random.Random(rng.random())) for seat in state.seats}
    while not state.is_over and sum(1 for d in state.deals if d.phase == "done") < deals:
        seat = state.acting_seat
        assert seat is not None
        state.apply(players[seat].decide(state.view(seat)).action, by=seat)
    return state.record(players=dict.fromkeys(state.seats, player))  # type: ignore[call-arg]


def play_best_cards(state: GameState, form: str, first_other: bool = True) -> None:
    """Finish the deal in progress, every card one the solver scores best for the seat to play
    (the other decisions: the first legal action, or the last with ``first_other=False``)."""
    number = state.deal.number
    solvers: dict[str, Solver] = {}
    while not state.is_over and state.deal.number == number and state.deal.phase != "done":
        deal = state.deal
        legal = state.legal_actions()
        if deal.phase != "play":
            state.apply(legal[0] if first_other else legal[-1])
            continue
        trick = deal.trick
        trump = getattr(deal, "trump", None) if state.game_id == "neuf" else deal.contract.trump
        position = make_position(
            state.game_id, {s: tuple(c) for s, c in deal.hands.items()}, trump, trick.leader, [c for _, c in trick.plays], form=form
        )
        key = "NS" if form == "partners" else position.to_play
        scores = solvers.setdefault(key, Solver(16)).score_cards(position)
        best = max(scores.values())
        card = min(card for card, value in scores.items() if value == best)
        state.apply(f"play {card.code}")
