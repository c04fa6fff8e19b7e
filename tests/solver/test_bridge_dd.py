"""The partnership form of Le Neuf is bridge card play: its results must equal the
published double-dummy tables of real deals (tests/solver/published, from DDS test files)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nines.solver import Solver, position_from_deal

DATA = Path(__file__).parent / "published" / "dds_legacy_list100.txt"
STRAINS = ("S", "H", "D", "C", "NT")
SEATS = ("N", "E", "S", "W")


def published_tables() -> list[tuple[str, list[int]]]:
    lines = [line for line in DATA.read_text().splitlines() if line and not line.startswith("#")]
    deals = []
    for pbn, table in zip(lines[0::2], lines[1::2], strict=True):
        match = re.fullmatch(r'PBN "(.*)"', pbn)
        assert match and table.startswith("TABLE "), (pbn, table)
        numbers = [int(n) for n in table.split()[1:]]
        assert len(numbers) == 20
        deals.append((match.group(1), numbers))
    return deals


DEALS = published_tables()


def test_the_data_holds_a_dozen_deals() -> None:
    assert len(DEALS) == 12


@pytest.mark.parametrize("deal, table", DEALS, ids=[f"deal{i + 1}" for i in range(len(DEALS))])
def test_double_dummy_table_matches_the_published_one(deal: str, table: list[int]) -> None:
    ours = []
    for strain in STRAINS:
        solver = Solver(table_mb=32)  # one table per strain, shared by the four declarers
        for k, declarer in enumerate(SEATS):
            leader = SEATS[(k + 1) % 4]  # the opening lead is made by declarer's left-hand opponent
            position = position_from_deal("neuf", deal, strain, leader)
            result = solver.solve(position)
            ours.append(result.tricks["NS" if declarer in "NS" else "EW"])
    assert ours == table
