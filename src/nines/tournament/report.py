"""Summaries of a tournament: per player, the mean result per deal, the edge, match wins, time.

Players are grouped by name: in ``expert,basic,basic`` the two ``basic`` seats are one
player, ``basic``, whose numbers pool both seats.

* **mean**: the player's mean result per deal, in the game's own unit and direction
  (see :mod:`nines.tournament.metrics`), with its 95% interval.
* **edge**: how much better the player did per deal than the other players on the
  same deals (positive is better whatever the game's direction), with its 95% interval;
  *pairwise* edges compare two players directly.
* **wins**: the share of matches the player won (joint winners share a win), against
  its fair share (its seats over all seats), with a 95% interval.
* **time**: CPU seconds per decision, median and worst.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .metrics import GameMetric, metric_for
from .runner import RawResults, distinct_deals
from .stats import Estimate, quantile, ratio_difference, ratio_mean


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    seats: int
    mean: Estimate
    edge: Estimate | None  # against everyone else (None when alone)
    wins: Estimate
    fair_share: float
    decisions: int
    time_median: float
    time_worst: float
    time_mean: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seats": self.seats,
            "mean": self.mean.to_dict(),
            "edge": self.edge.to_dict() if self.edge else None,
            "wins": self.wins.to_dict(),
            "fair_share": self.fair_share,
            "decisions": self.decisions,
            "time_s": {"median": self.time_median, "worst": self.time_worst, "mean": self.time_mean},
        }


@dataclass(frozen=True)
class Summary:
    game: str
    metric: GameMetric
    lineup: tuple[str, ...]
    seed: int
    deals: int
    deal_plays: int
    matches: int
    seatings: int
    players: list[PlayerSummary]
    pairwise: dict[tuple[str, str], Estimate] = field(default_factory=dict)
    abandoned: int = 0

    def player(self, name: str) -> PlayerSummary:
        return next(p for p in self.players if p.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "metric": self.metric.name,
            "better": "lower" if self.metric.lower_is_better else "higher",
            "lineup": list(self.lineup),
            "seed": self.seed,
            "deals": self.deals,
            "deal_plays": self.deal_plays,
            "matches": self.matches,
            "seatings": self.seatings,
            "abandoned_matches": self.abandoned,
            "players": [p.to_dict() for p in self.players],
            "pairwise_edge": [
                {"player": a, "over": b, **estimate.to_dict()} for (a, b), estimate in self.pairwise.items()
            ],
        }


def _cluster_sums(raw: RawResults, names: set[str]) -> tuple[list[float], list[float]]:
    """Per match: the sum of results and the number of deal-plays of the seats whose player is in ``names``."""
    sums: list[float] = []
    counts: list[float] = []
    for jobs in raw.matches:
        total = 0.0
        count = 0.0
        for job in jobs:
            seats = [seat for seat, name in zip(job.seats, job.seating, strict=True) if name in names]
            for deal in job.deals:
                for seat in seats:
                    total += deal[seat]
                    count += 1
        sums.append(total)
        counts.append(count)
    return sums, counts


def _win_sums(raw: RawResults, name: str) -> tuple[list[float], list[float]]:
    sums: list[float] = []
    counts: list[float] = []
    for jobs in raw.matches:
        share = 0.0
        for job in jobs:
            by_seat = dict(zip(job.seats, job.seating, strict=True))
            for winner in job.winners:
                mine = sum(1 for seat in winner if by_seat[seat] == name)
                share += mine / len(winner) / len(job.winners)
        sums.append(share)
        counts.append(float(len(jobs)))
    return sums, counts


def summarise(raw: RawResults) -> Summary:
    config = raw.config
    metric = metric_for(config.setup.game)
    lineup = config.lineup
    names = list(dict.fromkeys(lineup))
    sign = -1.0 if metric.lower_is_better else 1.0
    per_name = {name: _cluster_sums(raw, {name}) for name in names}
    players: list[PlayerSummary] = []
    for name in names:
        sums, counts = per_name[name]
        edge = None
        if len(names) > 1:
            rest = _cluster_sums(raw, set(names) - {name})
            edge = _signed(ratio_difference(sums, counts, *rest), sign)
        times = [t for jobs in raw.matches for job in jobs for t in job.times.get(name, [])]
        win_sums, win_counts = _win_sums(raw, name)
        players.append(
            PlayerSummary(
                name=name,
                seats=lineup.count(name),
                mean=ratio_mean(sums, counts),
                edge=edge,
                wins=ratio_mean(win_sums, win_counts),
                fair_share=lineup.count(name) / len(lineup),
                decisions=len(times),
                time_median=quantile(times, 0.5),
                time_worst=max(times, default=float("nan")),
                time_mean=sum(times) / len(times) if times else float("nan"),
            )
        )
    pairwise = {
        (a, b): _signed(ratio_difference(*per_name[a], *per_name[b]), sign)
        for i, a in enumerate(names)
        for b in names[i + 1:]
    }
    return Summary(
        game=config.setup.game,
        metric=metric,
        lineup=lineup,
        seed=config.seed,
        deals=raw.deals,
        deal_plays=sum(len(job.deals) for jobs in raw.matches for job in jobs),
        matches=len(raw.matches),
        seatings=config.rotations,
        players=players,
        pairwise=pairwise,
        abandoned=len(raw.abandoned),
    )


def _signed(estimate: Estimate, sign: float) -> Estimate:
    """An edge with positive meaning better."""
    if sign > 0:
        return estimate
    return Estimate(-estimate.mean, -estimate.high, -estimate.low, estimate.n)


__all__ = ["PlayerSummary", "Summary", "distinct_deals", "summarise"]
