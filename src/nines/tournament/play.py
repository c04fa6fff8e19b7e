"""Playing one tournament job (one match under one seating), in whichever process runs it.

Players decide from their seat's view only, exactly as in :func:`nines.bots.play_match`;
the one exception is a player marked ``sees_all_cards`` (the ``oracle`` of
:mod:`nines.tournament.oracle`), which is handed the whole state explicitly.  Each
decision's thinking time is measured as the CPU time of the deciding thread, so that
it means "time on one core" however busy the machine is.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_player
from ..games import get_game, unattended
from .metrics import metric_for
from .oracle import ORACLE_FACTORIES, SeesAllCards
from .schedule import Job, derive_seed

MAX_ACTIONS = 20_000
"""A match still going after this many actions is abandoned (no game needs a tenth of it;
rummy can loop for ever if both players keep taking and throwing back the top discard)."""


@dataclass
class JobResult:
    match: int
    rotation: int
    seats: tuple[str, ...]
    seating: tuple[str, ...]  # player name per seat
    deals: list[dict[str, float]]  # per finished deal: seat -> result
    winners: list[list[str]]  # each winner as the seats it stands for
    times: dict[str, list[float]] = field(default_factory=dict)  # player name -> seconds per decision
    finished: bool = True
    """False when the match was abandoned after :data:`MAX_ACTIONS` actions."""


@dataclass(frozen=True)
class GameSetup:
    game: str
    preset: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def options(self) -> Any:
        # nobody is there to end an open rummy session: it plays a fixed number of hands
        return unattended(get_game(self.game).options(self.preset, dict(self.overrides)))


def make_seat_player(name: str, game_id: str, rng: random.Random) -> Any:
    if name in ORACLE_FACTORIES:
        return ORACLE_FACTORIES[name](game_id, rng)
    return make_player(name, game_id, rng)


def play_job(
    setup: GameSetup, seed: int, job: Job, on_deal: Callable[[], None] | None = None
) -> JobResult:
    spec = get_game(setup.game)
    state = spec.new_match(setup.options(), job.match_seed)
    seats = state.seats
    if len(job.seating) != len(seats):
        raise ValueError(f"{len(job.seating)} players for {len(seats)} seats")
    players = {
        seat: make_seat_player(name, spec.id, random.Random(derive_seed("player", seed, job.match, job.rotation, i)))
        for i, (seat, name) in enumerate(zip(seats, job.seating, strict=True))
    }
    names = dict(zip(seats, job.seating, strict=True))
    times: dict[str, list[float]] = {name: [] for name in job.seating}
    clock = time.thread_time
    deal_number: Any = None
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        seat = state.acting_seat
        assert seat is not None
        player = players[seat]
        if isinstance(player, SeesAllCards):
            start = clock()
            decision = player.decide_state(state, seat)
            times[names[seat]].append(clock() - start)
        else:
            view = state.view(seat)
            number = getattr(view, "deal_number", None)
            if on_deal is not None and deal_number is not None and number != deal_number:
                on_deal()
            deal_number = number
            start = clock()
            decision = player.decide(view)
            times[names[seat]].append(clock() - start)
        state.apply(decision.action, by=seat)
    else:
        return JobResult(job.match, job.rotation, tuple(seats), job.seating, [], [], times, finished=False)
    if on_deal is not None:
        on_deal()
    metric = metric_for(spec.id)
    return JobResult(
        match=job.match,
        rotation=job.rotation,
        seats=tuple(seats),
        seating=job.seating,
        deals=metric.deal_values(state),
        winners=metric.winner_seats(state),
        times=times,
    )
