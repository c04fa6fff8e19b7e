"""Where two rummy players choose differently on the same positions, and which choice scores better (issue 20).

Plays two-player matches of ``--first`` against ``--second`` (the tournament's matches
of that seed: the same deals and seatings as ``rummy_share.py``).  At every draw and
discard of the first player the second is asked what it would do in the very same
view; where they differ, both choices are **rolled out** from the true position: the
choice is made, the stock is shuffled (the same ``--rollouts`` shuffles for both
choices, so they meet the same luck), and the hand is played to its end by
``--rollout-player`` in every seat.  A choice's score is the hand's penalty of the
other seat less the deciding seat's, so higher is better for the decider.

    PYTHONPATH=src python benchmarks/rummy_disagree.py --first expert --second ismcts --seed 7 --deals 40

It prints, for the draws and for the discards, how often the two disagree and the mean
of (the first's choice less the second's) over the disagreements, with a 95% interval
over positions.  The rollouts are what a player who knows nothing of either search
makes of the position after each choice, not the searches' own judgement, so they are
an independent referee; only the stock's order is reshuffled (the opponent's hand is
its true one).
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, field
from typing import Any

from nines.bots import make_player
from nines.games import get_game
from nines.games.rummy import Discard, Draw, RummyState
from nines.tournament.oracle import SeesAllCards
from nines.tournament.play import GameSetup, make_seat_player
from nines.tournament.schedule import derive_seed, jobs_for_match

PRESET = "capped"


@dataclass
class Tally:
    decisions: int = 0
    differences: list[float] = field(default_factory=list)

    def line(self, kind: str) -> str:
        n = len(self.differences)
        if n < 2:
            return f"{kind}: {n} of {self.decisions} differ"
        mean = sum(self.differences) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in self.differences) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        return (f"{kind}: {n} of {self.decisions} differ ({100 * n / self.decisions:.0f}%); first's choice less "
                f"second's {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] points a hand")


def rollout(state: RummyState, seat: str, action: object, shuffle_seed: int, player: str, player_seed: int) -> float:
    """The hand's result for ``seat`` (the others' mean penalty less its own) after ``action``, the stock reshuffled."""
    twin = state.clone()
    random.Random(shuffle_seed).shuffle(twin.deal.stock)
    number = len(twin.deals)
    players = {s: make_player(player, "rummy", random.Random(player_seed + i)) for i, s in enumerate(twin.seats)}
    twin.apply(action, by=seat)  # type: ignore[arg-type]
    while len(twin.deals) == number and twin.deal.phase != "done" and not twin.is_over:
        acting = twin.acting_seat
        assert acting is not None
        twin.apply(players[acting].decide(twin.view(acting)).action, by=acting)
    result = twin.deals[number - 1].result
    assert result is not None, "the hand was played to its end"
    points: dict[str, int] = result["points"]
    others = [points[s] for s in twin.seats if s != seat]
    return float(sum(others) / len(others) - points[seat])


def _decide(player: Any, state: RummyState, seat: str) -> Any:
    """The player's choice: from the seat's view, or (the oracle) from the whole state."""
    if isinstance(player, SeesAllCards):
        return player.decide_state(state, seat).action
    return player.decide(state.view(seat)).action


def study(first: str, second: str, seed: int, deals: int, rollouts: int, referee: str) -> None:
    setup = GameSetup("rummy", PRESET, {"players": "2"})
    tallies = {"draw": Tally(), "discard": Tally()}
    played = match = 0
    spec = get_game("rummy")
    while played < deals:
        for job in jobs_for_match(seed, match, (first, second)):
            state = spec.new_match(setup.options(), job.match_seed)
            assert isinstance(state, RummyState)
            players: dict[str, Any] = {
                s: make_seat_player(name, "rummy", random.Random(derive_seed("player", seed, job.match, job.rotation, i)))
                for i, (s, name) in enumerate(zip(state.seats, job.seating, strict=True))
            }
            shadow = make_seat_player(second, "rummy", random.Random(derive_seed("shadow", seed, job.match, job.rotation)))
            hands = 0
            while not state.is_over:
                acting = state.acting_seat
                assert acting is not None
                luck = getattr(players[acting], "rng", None)
                before = luck.getstate() if isinstance(luck, random.Random) else None
                action = _decide(players[acting], state, acting)
                mine = job.seating[state.seats.index(acting)] == first
                legal = state.legal_actions()
                kind = "draw" if isinstance(action, Draw) else "discard" if isinstance(action, Discard) else None
                choices = sum(1 for a in legal if (kind == "draw" and isinstance(a, Draw))
                              or (kind == "discard" and isinstance(a, Discard)))
                if mine and kind is not None and choices > 1:
                    tallies[kind].decisions += 1
                    # the shadow decides with the generator the first player had: where both deal the same
                    # imagined deals, they differ only where their judgement does
                    if before is not None and isinstance(getattr(shadow, "rng", None), random.Random):
                        shadow.rng.setstate(before)
                    other = _decide(shadow, state, acting)
                    if other != action and type(other) is type(action):
                        base = derive_seed("rollout", seed, job.match, job.rotation, len(state.log))
                        diff = sum(rollout(state, acting, action, base + k, referee, base + 7 * k)
                                   - rollout(state, acting, other, base + k, referee, base + 7 * k)
                                   for k in range(rollouts)) / rollouts
                        tallies[kind].differences.append(diff)
                state.apply(action, by=acting)
                hands = len(state.deals)
        played += hands
        match += 1
        print(f"match {match} ({played} deals): " + "; ".join(t.line(k) for k, t in tallies.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", default="expert")
    parser.add_argument("--second", default="ismcts")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--rollout-player", default="planner")
    args = parser.parse_args()
    study(args.first, args.second, args.seed, args.deals, args.rollouts, args.rollout_player)


if __name__ == "__main__":
    main()
