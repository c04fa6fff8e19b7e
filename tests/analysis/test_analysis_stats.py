"""Least squares, cluster-robust errors, importance and group means against known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nines.analysis.stats import Z95, group_means, importance, mean_ci, ols, r2_of


def _data(rng: np.random.Generator, n: int, clusters: int | None = None, cluster_sd: float = 0.0):
    x = rng.normal(size=(n, 3))
    beta = np.array([1.5, -0.5, 0.0])
    noise = rng.normal(size=n)
    ids = None
    if clusters:
        ids = rng.integers(0, clusters, n)
        noise = noise + cluster_sd * rng.normal(size=clusters)[ids]
    return x, 2.0 + x @ beta + noise, beta, ids


def test_ols_recovers_the_coefficients():
    x, y, beta, _ = _data(np.random.default_rng(1), 4000)
    fit = ols(x, y, ("a", "b", "c"))
    assert fit.intercept.value == pytest.approx(2.0, abs=0.06)
    for name, true in zip(fit.names, beta, strict=True):
        assert fit[name].value == pytest.approx(true, abs=0.06)
        assert abs(fit[name].value - true) < 4 * fit[name].se  # intervals: see the coverage test
    assert fit.n == 4000 and fit.clusters == 4000
    assert 0.6 < fit.r2 < 0.8  # var(signal) 2.5 against noise 1


def test_robust_errors_match_the_textbook_when_the_noise_is_plain():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(5000, 1))
    y = 0.3 * x[:, 0] + rng.normal(size=5000)
    fit = ols(x, y, ("x",))
    classic = 1.0 / math.sqrt(5000 * x[:, 0].var())
    assert fit["x"].se == pytest.approx(classic, rel=0.08)
    assert fit["x"].high - fit["x"].value == pytest.approx(Z95 * fit["x"].se)


def test_intervals_cover_the_truth_about_95_times_in_100():
    rng = np.random.default_rng(3)
    covered = 0
    for _ in range(300):
        x, y, beta, _ = _data(rng, 200)
        fit = ols(x, y, ("a", "b", "c"))
        covered += fit["a"].low < beta[0] < fit["a"].high
    assert 0.91 <= covered / 300 <= 0.985


def test_cluster_robust_errors_widen_when_rows_share_a_cluster_and_cover_the_truth():
    rng = np.random.default_rng(4)
    covered_plain = covered_cluster = 0
    widths = []
    for _ in range(150):
        clusters = rng.integers(0, 60, 1200)
        # a regressor constant within a cluster, and noise shared by the cluster
        x = rng.normal(size=60)[clusters][:, None]
        y = 0.5 * x[:, 0] + rng.normal(size=60)[clusters] + 0.5 * rng.normal(size=1200)
        plain = ols(x, y, ("x",))
        clustered = ols(x, y, ("x",), clusters=clusters)
        covered_plain += plain["x"].low < 0.5 < plain["x"].high
        covered_cluster += clustered["x"].low < 0.5 < clustered["x"].high
        widths.append(clustered["x"].se / plain["x"].se)
    assert np.median(widths) > 3  # twenty rows a cluster that are nearly copies of each other
    assert covered_plain / 150 < 0.6
    assert covered_cluster / 150 > 0.88


def test_difference_of_two_coefficients_uses_their_covariance():
    rng = np.random.default_rng(5)
    a = rng.normal(size=3000)
    b = a + 0.1 * rng.normal(size=3000)  # nearly the same feature: each alone is vague, the sum is not
    y = a + b + rng.normal(size=3000)
    fit = ols(np.column_stack([a, b]), y, ("a", "b"))
    difference = fit.difference("a", "b")
    assert difference.value == pytest.approx(fit["a"].value - fit["b"].value)
    naive = math.hypot(fit["a"].se, fit["b"].se)
    assert difference.se > naive  # negatively correlated estimates: the difference is less sure
    assert difference.low < 0 < difference.high


def test_ols_names_a_feature_it_cannot_tell_apart():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(100, 2))
    with pytest.raises(ValueError, match="features 'a', 'b', 'c' cannot be told apart"):
        ols(np.column_stack([x, x[:, 0] + x[:, 1]]), rng.normal(size=100), ("a", "b", "c"))
    with pytest.raises(ValueError, match="features 'k' cannot be told apart"):
        ols(np.column_stack([x, np.ones(100)]), rng.normal(size=100), ("a", "b", "k"))
    with pytest.raises(ValueError, match="2 feature columns but 1 names"):
        ols(x, rng.normal(size=100), ("a",))


def test_importance_alone_and_dropped():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(6000, 3))
    x[:, 2] = x[:, 0] + 0.01 * rng.normal(size=6000)  # c duplicates a
    y = x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=6000)
    found = {i.name: i for i in importance(x, y, ("a", "b", "c"), {"a and c": ("a", "c")})}
    # a explains much alone, but nothing c does not: dropping it costs almost nothing
    assert found["a"].alone == pytest.approx(r2_of(x[:, [0]], y))
    assert found["a"].alone > 0.4 and found["a"].drop < 0.01
    assert found["b"].drop == pytest.approx(found["b"].alone, abs=0.01)  # b is independent of the rest
    assert found["a and c"].drop > 0.4


def test_mean_and_group_means_with_their_intervals():
    y = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    plain = mean_ci(y)
    half = Z95 * y.std(ddof=1) / math.sqrt(6)
    assert plain.mean == pytest.approx(3.5)
    assert plain.high - plain.mean == pytest.approx(half)
    # rows duplicated within clusters carry no more information than the clusters
    doubled = mean_ci(np.repeat(y, 2), np.repeat(np.arange(6), 2))
    assert doubled.mean == pytest.approx(3.5) and doubled.high == pytest.approx(plain.high)
    groups = group_means(np.array([0, 0, 1, 1, 1, 2]), y, min_rows=2)
    assert [(g.value, g.mean, g.rows) for g in groups] == [(0, 1.5, 2), (1, 4.0, 3)]
