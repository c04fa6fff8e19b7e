"""The statistics behind tournament reports."""

import math
import random

from nines.tournament.stats import Estimate, quantile, ratio_difference, ratio_mean


def test_ratio_mean_of_equal_clusters_is_the_plain_mean_with_the_usual_interval():
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    est = ratio_mean(values, [1] * len(values))
    assert est.mean == 3.5
    sd = math.sqrt(sum((v - 3.5) ** 2 for v in values) / 5)
    assert math.isclose(est.half_width, 1.959963984540054 * sd / math.sqrt(6))


def test_ratio_mean_weights_clusters_by_their_deals():
    est = ratio_mean([10.0, 0.0], [10, 1])
    assert math.isclose(est.mean, 10 / 11)


def test_interval_covers_the_truth_about_95_percent_of_the_time():
    rng = random.Random(1)
    covered = 0
    trials = 400
    for _ in range(trials):
        sums, counts = [], []
        for _ in range(40):
            n = rng.randint(5, 20)
            sums.append(sum(rng.gauss(0.3, 1.0) for _ in range(n)))
            counts.append(n)
        est = ratio_mean(sums, counts)
        covered += est.low <= 0.3 <= est.high
    assert 0.91 < covered / trials < 0.98


def test_paired_difference_cancels_shared_luck():
    rng = random.Random(2)
    a, b = [], []
    for _ in range(50):
        luck = rng.gauss(0, 5)  # the same cards for both players
        a.append(luck + 1.0 + rng.gauss(0, 0.1))
        b.append(luck + rng.gauss(0, 0.1))
    ones = [1] * 50
    diff = ratio_difference(a, ones, b, ones)
    assert diff.clear_of_zero and 0.9 < diff.mean < 1.1 and diff.half_width < 0.1


def test_degenerate_inputs():
    assert math.isnan(ratio_mean([], []).mean)
    assert ratio_mean([3.0], [2]).low == -math.inf
    assert not Estimate(0.5, -0.1, 1.1, 3).clear_of_zero


def test_quantile_interpolates():
    assert quantile([3, 1, 2], 0.5) == 2
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    assert quantile([5], 1.0) == 5
