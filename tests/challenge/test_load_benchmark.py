"""The challenge's load benchmark runs end to end at a tiny size and prints what it promises (its figures
themselves are not tested: they are the machine's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "challenge_load.py"


@pytest.mark.slow
def test_three_people_play_the_challenge_and_the_standings_are_timed() -> None:
    # a real `nines serve` (its start-up is most of the time), three people for five seconds, fifty finished entries
    done = subprocess.run(
        [sys.executable, str(BENCH), "--people", "3", "--ramp", "1", "--seconds", "5", "--bot-delay-ms", "0",
         "--standings-entries", "50", "--standings-requests", "1"],
        capture_output=True, text=True, timeout=240, check=False)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "50 finished entries written for " in out
    assert "people: 3 (" in out and " 0 failed)" in out
    moves = re.search(r"^moves: (\d+) in [\d.]+ s = [\d.]+ moves/s", out, re.MULTILINE)
    assert moves and int(moves.group(1)) > 0, out
    acks = re.search(r"^acknowledgement of a person's move \((\d+) moves\): p50 [\d.]+ ms, p99 [\d.]+ ms, worst", out, re.MULTILINE)
    assert acks and int(acks.group(1)) > 0, out
    assert re.search(r"^server CPU a move: [\d.]+ ms \(event loop", out, re.MULTILINE), out
    assert re.search(r"^server resident memory: \d+ MB", out, re.MULTILINE), out
    assert re.search(r"^challenges finished: \d+ of 3$", out, re.MULTILINE), out
    # the standings read every entry written (and the people's finished ones, if any)
    standings = re.search(r"^standings \(GET /api/challenge/neuf/[\d-]+, (\d+) finished entries, .*cold first request [\d.]+ ms", out,
                          re.MULTILINE)
    assert standings and int(standings.group(1)) >= 50, out
    assert re.search(r"^  1 back to back .*: p50 [\d.]+ ms", out, re.MULTILINE), out
    assert re.search(r"^  1 each [\d.]+ s after the last \(worked out each time\): p50 [\d.]+ ms", out, re.MULTILINE), out
