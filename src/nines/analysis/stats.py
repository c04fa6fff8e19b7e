"""Least squares with cluster-robust intervals, and means by group, in plain numpy.

Rows of the analyses are not independent: the four trump suits of one Elyigit deal, or the
five trumps of one Le Neuf deal, share the same cards.  The unit of independence is the
*deal*, so every standard error here is cluster-robust by deal (the sandwich estimator with
the usual small-sample factor ``G/(G-1) * (n-1)/(n-k)``, "CR1"); with every row its own
cluster it is the heteroskedasticity-robust HC1.  Intervals are normal 95% intervals, which
is what a few hundred clusters or more allow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "Z95",
    "Coefficient",
    "Fit",
    "GroupMean",
    "Importance",
    "cluster_ids",
    "group_means",
    "importance",
    "mean_ci",
    "ols",
    "r2_of",
]

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


@dataclass(frozen=True)
class Coefficient:
    """One feature's value: the change in the outcome per unit, the others held fixed."""

    name: str
    value: float
    se: float

    @property
    def low(self) -> float:
        return self.value - Z95 * self.se

    @property
    def high(self) -> float:
        return self.value + Z95 * self.se

    def to_dict(self) -> dict[str, float | str]:
        return {"name": self.name, "value": self.value, "se": self.se, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Fit:
    """An ordinary least squares fit with an intercept, and its cluster-robust errors."""

    intercept: Coefficient
    coefficients: tuple[Coefficient, ...]
    r2: float
    n: int
    clusters: int
    covariance: np.ndarray = field(repr=False, compare=False)
    """cluster-robust covariance of the coefficients (intercept left out), in ``names`` order"""

    def __getitem__(self, name: str) -> Coefficient:
        for coefficient in self.coefficients:
            if coefficient.name == name:
                return coefficient
        raise KeyError(f"no feature {name!r} in this fit; it has {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.coefficients)

    def difference(self, a: str, b: str) -> Coefficient:
        """How much more a unit of ``a`` is worth than a unit of ``b``, with its error."""
        i, j = self.names.index(a), self.names.index(b)
        c = self.covariance
        variance = c[i, i] + c[j, j] - 2 * c[i, j]
        return Coefficient(f"{a} - {b}", self[a].value - self[b].value, float(math.sqrt(max(variance, 0.0))))

    def to_dict(self) -> dict[str, object]:
        return {
            "intercept": self.intercept.to_dict(),
            "coefficients": [c.to_dict() for c in self.coefficients],
            "r2": self.r2,
            "n": self.n,
            "clusters": self.clusters,
        }


def cluster_ids(labels: np.ndarray) -> tuple[np.ndarray, int]:
    """Labels (any values) as consecutive cluster numbers ``0..G-1``, and ``G``."""
    _, ids = np.unique(labels, return_inverse=True)
    return ids.reshape(-1), int(ids.max()) + 1 if len(ids) else 0


def _design(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    return np.column_stack([np.ones(len(x)), x])


def _r2(y: np.ndarray, residuals: np.ndarray) -> float:
    total = float(((y - y.mean()) ** 2).sum())
    return 1.0 - float((residuals**2).sum()) / total if total > 0 else math.nan


def r2_of(x: np.ndarray, y: np.ndarray) -> float:
    """R² of the least squares fit of ``y`` on the columns of ``x`` (and an intercept)."""
    design = _design(x)
    y = np.asarray(y, dtype=float)
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    return _r2(y, y - design @ beta)


def ols(x: np.ndarray, y: np.ndarray, names: Sequence[str], clusters: np.ndarray | None = None) -> Fit:
    """Fit ``y = a + x b`` by least squares; errors cluster-robust by ``clusters`` (default: by row).

    ``x`` has one column per name.  A column that is constant, or an exact combination of
    others, cannot be told apart: the fit is refused, naming the features involved.
    """
    y = np.asarray(y, dtype=float)
    design = _design(x)
    n, k = design.shape
    if len(names) != k - 1:
        raise ValueError(f"{k - 1} feature columns but {len(names)} names")
    if len(y) != n:
        raise ValueError(f"{n} rows of features but {len(y)} outcomes")
    if n <= k:
        raise ValueError(f"{n} rows cannot fit {k} coefficients")
    rank = np.linalg.matrix_rank(design)
    if rank < k:
        involved = [names[j - 1] for j in range(1, k) if np.linalg.matrix_rank(np.delete(design, j, axis=1)) == rank]
        listed = ", ".join(repr(name) for name in involved)
        raise ValueError(f"the features {listed} cannot be told apart here: one is constant or a combination of others")
    xtx_inv = np.linalg.inv(design.T @ design)
    beta = xtx_inv @ (design.T @ y)
    residuals = y - design @ beta
    if clusters is None:
        ids, groups = np.arange(n), n
    else:
        ids, groups = cluster_ids(np.asarray(clusters))
    if groups < 2:
        raise ValueError("cluster-robust errors need at least two clusters")
    scores = design * residuals[:, None]
    summed = np.column_stack([np.bincount(ids, weights=scores[:, j], minlength=groups) for j in range(k)])
    meat = summed.T @ summed
    factor = groups / (groups - 1) * (n - 1) / (n - k)
    covariance = factor * xtx_inv @ meat @ xtx_inv
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    coefficients = tuple(Coefficient(name, float(beta[j + 1]), float(se[j + 1])) for j, name in enumerate(names))
    return Fit(
        Coefficient("intercept", float(beta[0]), float(se[0])),
        coefficients,
        _r2(y, residuals),
        n,
        groups,
        covariance[1:, 1:],
    )


@dataclass(frozen=True)
class Importance:
    """How much of the outcome's variance one feature (or block) explains.

    ``alone``: R² of the feature by itself.  ``drop``: how much the full model's R² falls
    when the feature is left out (what it explains that nothing else in the model does).
    """

    name: str
    alone: float
    drop: float

    def to_dict(self) -> dict[str, float | str]:
        return {"name": self.name, "alone": self.alone, "drop": self.drop}


def importance(
    x: np.ndarray, y: np.ndarray, names: Sequence[str], blocks: dict[str, Sequence[str]] | None = None
) -> list[Importance]:
    """R² alone and drop-one R² for every feature, then for each named block of features."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    full = r2_of(x, y)
    out = []
    groups: dict[str, list[int]] = {name: [j] for j, name in enumerate(names)}
    for block, members in (blocks or {}).items():
        groups[block] = [list(names).index(member) for member in members]
    for name, columns in groups.items():
        alone = r2_of(x[:, columns], y)
        rest = [j for j in range(x.shape[1]) if j not in columns]
        without = r2_of(x[:, rest], y) if rest else 0.0
        out.append(Importance(name, alone, full - without))
    return out


@dataclass(frozen=True)
class GroupMean:
    """The mean outcome of the rows sharing one value of a feature, with its 95% interval."""

    value: int
    mean: float
    low: float
    high: float
    rows: int

    def to_dict(self) -> dict[str, float | int]:
        return {"value": self.value, "mean": self.mean, "low": self.low, "high": self.high, "rows": self.rows}


def mean_ci(y: np.ndarray, clusters: np.ndarray | None = None) -> GroupMean:
    """The mean of ``y`` with a cluster-robust 95% interval (a ratio estimator over clusters)."""
    y = np.asarray(y, dtype=float)
    ids, groups = (np.arange(len(y)), len(y)) if clusters is None else cluster_ids(np.asarray(clusters))
    sums = np.bincount(ids, weights=y, minlength=groups)
    counts = np.bincount(ids, minlength=groups).astype(float)
    keep = counts > 0
    sums, counts = sums[keep], counts[keep]
    m = len(sums)
    total = counts.sum()
    mean = float(sums.sum() / total) if total else math.nan
    if m < 2:
        return GroupMean(0, mean, -math.inf, math.inf, int(total))
    residuals = (sums - mean * counts) / (total / m)
    half = Z95 * math.sqrt(float((residuals**2).sum()) / (m * (m - 1)))
    return GroupMean(0, mean, mean - half, mean + half, int(total))


def group_means(
    values: np.ndarray, y: np.ndarray, clusters: np.ndarray | None = None, min_rows: int = 1
) -> list[GroupMean]:
    """Mean of ``y`` for each integer value of ``values`` (groups of fewer than ``min_rows`` left out)."""
    values = np.asarray(values)
    y = np.asarray(y, dtype=float)
    cl = None if clusters is None else np.asarray(clusters)
    out = []
    for value in np.unique(values):
        mask = values == value
        if mask.sum() < min_rows:
            continue
        estimate = mean_ci(y[mask], None if cl is None else cl[mask])
        out.append(GroupMean(int(value), estimate.mean, estimate.low, estimate.high, estimate.rows))
    return out
