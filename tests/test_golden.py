"""Golden records: the same seed and players must give exactly the stored match.

A change to any rule, to dealing or to a basic player shows up here; if the change is
intended, regenerate the file with the command in GOLDEN and say so in the commit.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nines.cli import app
from nines.record import replay

HERE = Path(__file__).parent / "golden"
# file -> the command line (after 'nines') that wrote it
GOLDEN = {
    "neuf-standard-seed7.json": "simulate neuf --seed 7 --players basic,random,random --json",
    "neuf-partners-seed8.json": "simulate neuf --seed 8 --preset newfoundland-partners --players basic,random,basic,random --json",
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_simulation_reproduces_the_golden_record(name):
    result = CliRunner().invoke(app, GOLDEN[name].split())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads((HERE / name).read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_records_replay(name):
    record = json.loads((HERE / name).read_text())
    assert replay(record).record(players=record["players"]) == record
