"""Statistics for duplicate tournaments: means per deal with confidence intervals.

The unit of independence is the *match*: one match seed played once per seating.
Deals inside a match share that match (and, for full matches, the seating), so a
player's mean per deal is a ratio estimator over matches, ``sum of results / number
of deals``, and its standard error comes from the linearised (delta-method) variance
over matches.  This makes no claim that deals are independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int  # deals (or matches) it rests on

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def clear_of_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def ratio_mean(sums: Sequence[float], counts: Sequence[float]) -> Estimate:
    """``sum(sums) / sum(counts)`` with a 95% interval, treating each index as one cluster."""
    pairs = [(x, n) for x, n in zip(sums, counts, strict=True) if n > 0]
    total_n = sum(n for _, n in pairs)
    if total_n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(x for x, _ in pairs) / total_n
    m = len(pairs)
    if m < 2:
        return Estimate(mean, -math.inf, math.inf, int(total_n))
    n_bar = total_n / m
    residuals = [(x - mean * n) / n_bar for x, n in pairs]
    variance = sum(r * r for r in residuals) / (m * (m - 1))
    half = Z95 * math.sqrt(variance)
    return Estimate(mean, mean - half, mean + half, int(total_n))


def ratio_difference(
    sums_a: Sequence[float], counts_a: Sequence[float], sums_b: Sequence[float], counts_b: Sequence[float]
) -> Estimate:
    """``mean_a - mean_b`` (two ratio estimators over the same clusters) with a 95% interval.

    The clusters are paired (the same match seen by both players), so the interval
    benefits from duplicate dealing: the luck of the cards cancels.
    """
    na, nb = sum(counts_a), sum(counts_b)
    if na == 0 or nb == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    ra, rb = sum(sums_a) / na, sum(sums_b) / nb
    m = len(sums_a)
    if m < 2:
        return Estimate(ra - rb, -math.inf, math.inf, int(na + nb))
    bar_a, bar_b = na / m, nb / m
    residuals = [
        (xa - ra * ca) / bar_a - (xb - rb * cb) / bar_b
        for xa, ca, xb, cb in zip(sums_a, counts_a, sums_b, counts_b, strict=True)
    ]
    variance = sum(r * r for r in residuals) / (m * (m - 1))
    half = Z95 * math.sqrt(variance)
    diff = ra - rb
    return Estimate(diff, diff - half, diff + half, int(min(na, nb)))


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation (``q=0.5``: the median)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
