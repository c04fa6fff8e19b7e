"""Verdicts on seed 003's claim read the intervals the right way round."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from nines.analysis.deals import ELYIGIT_SEATS, elyigit_deal
from nines.analysis.elyigit import HAND_FEATURES, TRICKS_COLUMNS, feature_rows
from nines.analysis.elyigit_report import LABELS, analyse_elyigit
from nines.analysis.stats import Coefficient, ols
from nines.analysis.verdicts import NOT_SUPPORTED, SUPPORTED, UNCLEAR, near_zero, ranks_first
from nines.cards import ace_low, format_deal


def _fit(values: dict[str, float], noise: float, n: int = 3000, seed: int = 0):
    rng = np.random.default_rng(seed)
    names = tuple(values)
    x = rng.normal(size=(n, len(names)))
    y = x @ np.array([values[k] for k in names]) + noise * rng.normal(size=n)
    return ols(x, y, names)


LABELS3 = {"void": "a void", "nine": "a nine", "long": "a long suit"}


def test_first_when_clearly_above_every_rival():
    fit = _fit({"void": 1.0, "nine": 0.6, "long": 0.0}, noise=0.5)
    verdict = ranks_first("void first", fit, "void", ["nine", "long"], LABELS3)
    assert verdict.status == SUPPORTED
    assert "the closest, a nine" in verdict.evidence


def test_not_first_when_a_rival_is_clearly_above():
    fit = _fit({"void": 0.3, "nine": 0.9, "long": 0.0}, noise=0.5)
    verdict = ranks_first("void first", fit, "void", ["nine", "long"], LABELS3)
    assert verdict.status == NOT_SUPPORTED
    assert "worth more: a nine" in verdict.evidence


def test_unclear_when_the_intervals_overlap():
    fit = _fit({"void": 0.61, "nine": 0.6, "long": 0.0}, noise=3.0, n=400)
    assert ranks_first("void first", fit, "void", ["nine", "long"], LABELS3).status == UNCLEAR


@pytest.mark.parametrize(
    ("value", "se", "status"),
    [(0.02, 0.02, SUPPORTED), (-0.05, 0.02, SUPPORTED), (0.5, 0.05, NOT_SUPPORTED), (-0.4, 0.1, NOT_SUPPORTED),
     (0.05, 0.1, UNCLEAR), (0.12, 0.05, UNCLEAR)],
)
def test_almost_nothing_means_within_the_threshold(value, se, status):
    assert near_zero("long suits", Coefficient("long", value, se), "a long suit", 0.10).status == status


def test_the_report_finds_what_was_planted_in_the_tricks():
    """Real hands, made-up tricks: a void worth 1.5, a nine 1.0, length nothing."""
    deals = [elyigit_deal(13, i) for i in range(600)]
    table = pl.DataFrame({"deal": range(600), "hands": [format_deal(d, ELYIGIT_SEATS, strength=ace_low) for d in deals]})
    table = table.with_columns([pl.lit(0).alias(c) for c in TRICKS_COLUMNS.values()])
    rows = feature_rows(table)
    rng = np.random.default_rng(1)
    planted = 2 + 1.5 * rows["side_voids"].to_numpy() + 1.0 * rows["nines"].to_numpy()
    planted = planted + 0.4 * rows["trump_length"].to_numpy() + 0.3 * rng.normal(size=rows.height)
    analysis = analyse_elyigit(rows.with_columns(pl.Series("tricks", planted)))
    every = analysis.view("all")
    assert [v.status for v in every.verdicts] == [SUPPORTED, SUPPORTED, SUPPORTED]
    assert every.fit["side_voids"].low < 1.5 < every.fit["side_voids"].high
    assert every.fit.r2 > 0.8
    assert set(LABELS) == set(HAND_FEATURES)
    # with one trump a deal there are four times fewer rows, and the same values
    sense = analysis.view("card_sense")
    assert sense.fit.n == 600
    assert sense.fit["nines"].value == pytest.approx(1.0, abs=0.1)
