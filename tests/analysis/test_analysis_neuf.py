"""Le Neuf study: the exchange and the three players' values, solved as stated and summarised right."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from nines.analysis.deals import NEUF_SEATS, neuf_deal
from nines.analysis.neuf import NeufStudy, parse_trumps, value_column
from nines.analysis.neuf_report import analyse_neuf, statements
from nines.analysis.store import Chunk
from nines.cards import Suit, ace_high, format_deal
from nines.solver import solve


def test_trumps_are_read_in_order_and_once():
    assert parse_trumps("h, nt,S") == ("H", "NT", "S")
    with pytest.raises(ValueError, match="named twice"):
        parse_trumps("H,H")
    with pytest.raises(ValueError, match="at least one"):
        parse_trumps(" , ")
    with pytest.raises(ValueError, match="not a trump"):
        parse_trumps("X")


def test_values_are_exact_paranoid_values_with_south_leading():
    study = NeufStudy(seed=3, trumps=("D", "NT"))
    assert study.solves_per_deal == 8
    table = study.solve_chunk(Chunk(1, 2))
    row = table.row(0, named=True)
    dealt = neuf_deal(3, 1)
    own = {seat: dealt[seat] for seat in NEUF_SEATS}
    assert row["hands"] == format_deal(own, NEUF_SEATS, strength=ace_high)
    for code, trump in (("D", Suit.DIAMONDS), ("NT", None)):
        as_dealt = solve("neuf", own, trump, "S").tricks
        with_spare = solve("neuf", {**own, "S": dealt["spare"]}, trump, "S", player="S").tricks
        assert row[value_column("S_own", code)] == as_dealt["S"]
        assert row[value_column("W", code)] == as_dealt["W"]
        assert row[value_column("E", code)] == as_dealt["E"]
        assert row[value_column("S_spare", code)] == with_spare["S"]


def _synthetic(n: int = 200) -> pl.DataFrame:
    rng = np.random.default_rng(0)
    own = rng.integers(0, 9, n)
    return pl.DataFrame({
        "deal": np.arange(n),
        "S_own_H": own, "S_spare_H": own + 1, "W_H": np.full(n, 4), "E_H": np.full(n, 6),
        "S_own_NT": np.full(n, 5), "S_spare_NT": np.full(n, 3), "W_NT": np.full(n, 5), "E_NT": np.full(n, 5),
    })


def test_the_summary_of_a_known_table():
    data = _synthetic()
    analysis = analyse_neuf(data, ("H", "NT"))
    hearts, nt = analysis.by_trump
    own = data["S_own_H"].to_numpy()
    assert (hearts.gain.mean, hearts.gain.low, hearts.gain.high) == (1.0, 1.0, 1.0)
    assert hearts.gain_share == 1.0 and hearts.loss_share == 0.0
    assert hearts.weak_rule.mean == pytest.approx((own < 4).mean())  # exchanging below the quota gains 1 there
    assert hearts.oracle.mean == 1.0
    assert hearts.own_sd == pytest.approx(own.std(ddof=1))
    spread = np.maximum(own, 6) - np.minimum(own, 4)
    assert hearts.within_spread.mean == pytest.approx(spread.mean())
    assert (nt.gain.mean, nt.oracle.mean, nt.own_sd, nt.quota_share) == (-2.0, 0.0, 0.0, 1.0)
    estimate, low, _ = analysis.spread_difference
    assert estimate == pytest.approx(own.std(ddof=1)) and low > 0
    assert any("a trump suit widens the spread" in line for line in statements(analysis))
    by_own = {g.value: g.mean for g in analysis.gain_by_own["a trump suit"]}
    assert len(by_own) == 9 and set(by_own.values()) == {1.0}
