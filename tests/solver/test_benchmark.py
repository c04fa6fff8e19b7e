"""The speed benchmark runs and prints what it promises (figures themselves are not tested)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "solver_bench.py"


def run_bench(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    module = runpy.run_path(str(BENCH))
    assert module["main"](list(args)) == 0
    return capsys.readouterr().out


def test_prints_the_figures_of_every_solve(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_bench(capsys, "--form", "elyigit", "--deals", "4", "--seed", "3")
    assert "elyigit: 4 random deals, seed 3, one core\n" in out
    assert "solve: mean" in out and "median" in out and "p99" in out and "worst" in out
    assert "M nodes/s" in out and "table: limit 64 MB" in out


def test_repeat_keeps_the_fastest_run_and_the_same_work(capsys: pytest.CaptureFixture[str]) -> None:
    once = run_bench(capsys, "--form", "neuf3", "--deals", "3", "--seed", "5")
    twice = run_bench(capsys, "--form", "neuf3", "--deals", "3", "--seed", "5", "--repeat", "2", "--scores")
    assert "fastest of 2 runs each" in twice
    assert "scoring / single solve (means):" in twice

    def nodes(text: str) -> str:
        return next(line.split(" per solve")[0] for line in text.splitlines() if line.startswith("nodes:"))

    assert nodes(once) == nodes(twice)  # every run starts from an empty table
