"""The ratings' and the challenge's tables, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from nines.ratings import INITIAL, Skill
from nines.server.store.database import Store
from nines.server.store.standing import ChallengeEntry, Standing


@pytest.fixture
def standing(database_url: str) -> Standing:
    store = Store(database_url)
    store.migrate()
    return Standing(store)


@pytest.mark.databases
def test_a_match_is_rated_once_and_kept_with_its_history(standing: Standing) -> None:
    after = {"ann": Skill(27.0, 8.0, 1), "bob": Skill(23.0, 8.0, 1)}
    assert standing.record_ratings("neuf", "t1", {}, after)
    assert not standing.record_ratings("neuf", "t1", {}, {"ann": Skill(40.0, 1.0, 9)})  # rated already
    assert standing.skills("neuf", ["ann", "bob", "cy"]) == after
    assert standing.record_ratings("neuf", "t2", after, {"ann": Skill(28.0, 7.5, 2)})
    changes = standing.history("ann")
    assert [(c.table_id, c.before, c.after) for c in changes] == [
        ("t1", Skill(INITIAL.mu, INITIAL.sigma), Skill(27.0, 8.0)), ("t2", Skill(27.0, 8.0), Skill(28.0, 7.5))]
    assert {c.name for c in standing.table_changes("t1")} == {"ann", "bob"}
    assert standing.record_ratings("neuf", "anchor-1", {}, {"expert": Skill(30.0, 5.0, 1)}, computers={"expert"})
    board = {name: (skill, computer) for name, skill, computer in standing.board("neuf")}
    assert board["expert"] == (Skill(30.0, 5.0, 1), True) and board["ann"] == (Skill(28.0, 7.5, 2), False)
    assert standing.person_ratings("ann") == {"neuf": Skill(28.0, 7.5, 2)}


@pytest.mark.databases
def test_a_days_secret_is_written_once_and_an_entry_once_a_name(standing: Standing) -> None:
    first = standing.day_secret("2026-12-07", "neuf", lambda: "a" * 64)
    assert first == "a" * 64 and standing.day_secret("2026-12-07", "neuf", lambda: "b" * 64) == first
    entry = ChallengeEntry("2026-12-07", "neuf", "ann", "t1", "S")
    assert standing.add_entry(entry) == entry
    assert standing.add_entry(ChallengeEntry("2026-12-07", "neuf", "ann", "t9", "S")) == entry  # the first stays
    assert standing.entry_of_table("t1") == entry
    standing.set_results("2026-12-07", "neuf", "ann", [2.0, -1.0], finished=False)
    assert standing.day_results("2026-12-07", "neuf") == {}
    standing.set_results("2026-12-07", "neuf", "ann", [2.0, -1.0, 0.0], finished=True)
    assert standing.day_results("2026-12-07", "neuf") == {"ann": [2.0, -1.0, 0.0]}
    assert standing.person_entries("ann")[0].finished
    assert set(standing.challenge_tables(["t1", "t2"])) == {"t1"}
