"""``nines analyze``: the report folder, its verdicts and plots, resuming, and refusals."""

from __future__ import annotations

import json

import polars as pl
from typer.testing import CliRunner

from nines.analysis.elyigit_report import CLAIMS
from nines.analysis.elyigit_report import PLOTS as ELYIGIT_PLOTS
from nines.analysis.neuf_report import PLOTS as NEUF_PLOTS
from nines.cli import app

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def _words(output: str) -> str:
    """The output without Rich's box drawing and line wrapping."""
    return " ".join(output.replace("│", " ").split())


def test_analyze_elyigit_writes_a_report_folder(tmp_path):
    out = tmp_path / "ely"
    args = ["analyze", "elyigit", "--deals", "40", "--seed", "5", "--workers", "1", "--chunk-size", "16",
            "--out", str(out), "--no-progress"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "40 deals solved" in result.output and "deals/s" in result.output
    summary = (out / "summary.md").read_text()
    for claim in CLAIMS:
        assert claim in summary
    assert "all four trumps, per unit: " in summary and "by R² lost without it: " in summary
    assert "nines analyze elyigit --deals 40 --seed 5 --chunk-size 16" in summary
    for name in ELYIGIT_PLOTS:
        assert (out / name).read_bytes().startswith(PNG)
        assert f"]({name})" in summary
    deals = pl.read_parquet(out / "deals.parquet")
    rows = pl.read_parquet(out / "rows.parquet")
    assert deals.height == 40 and rows.height == 160
    assert rows.group_by("deal").agg(pl.col("chosen").sum())["chosen"].to_list() == [1] * 40
    results = json.loads((out / "results.json").read_text())
    statuses = {v["status"] for view in results["views"].values() for v in view["verdicts"]}
    assert statuses <= {"supported", "not supported", "unclear"}
    assert results["run"]["identity"]["leader"] == "E"

    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "nothing to solve" in again.output
    assert pl.read_parquet(out / "deals.parquet").equals(deals)
    assert "Solving, over 1 call(s) into this folder: 40 deals" in (out / "summary.md").read_text()


def test_analyze_refuses_a_folder_of_another_seed(tmp_path):
    base = ["analyze", "elyigit", "--deals", "4", "--workers", "1", "--out", str(tmp_path), "--no-progress"]
    assert runner.invoke(app, [*base, "--seed", "1"]).exit_code == 0
    result = runner.invoke(app, [*base, "--seed", "2"])
    assert result.exit_code == 1
    assert "holds another run (seed: folder has 1, this run 2)" in _words(result.output)


def test_analyze_refuses_workers_with_a_cluster_address(tmp_path):
    result = runner.invoke(app, ["analyze", "elyigit", "--deals", "4", "--workers", "2", "--ray", "auto",
                                 "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--workers goes with --ray local only" in _words(result.output)


def test_analyze_neuf_writes_a_report_folder(tmp_path):
    out = tmp_path / "neuf"
    result = runner.invoke(app, ["analyze", "neuf", "--deals", "3", "--seed", "2", "--trumps", "H,NT",
                                 "--workers", "1", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "On average the exchange gains" in result.output
    summary = (out / "summary.md").read_text()
    assert "--trumps H,NT" in summary and "Trumps against no trumps" in summary
    for name in NEUF_PLOTS:
        assert (out / name).read_bytes().startswith(PNG)
    deals = pl.read_parquet(out / "deals.parquet")
    assert deals.columns == ["deal", "hands", "spare", "S_own_H", "S_spare_H", "W_H", "E_H",
                             "S_own_NT", "S_spare_NT", "W_NT", "E_NT"]
    assert deals.height == 3


def test_analyze_neuf_refuses_an_unknown_trump(tmp_path):
    result = runner.invoke(app, ["analyze", "neuf", "--deals", "1", "--trumps", "H,X", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "'X' is not a trump" in _words(result.output)


def test_the_command_line_starts_without_loading_the_analysis():
    """``nines play`` should not pay for polars and matplotlib: they load when analysing."""
    import subprocess
    import sys

    code = "import sys, nines.cli; print(sorted(m for m in ('polars', 'matplotlib') if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
