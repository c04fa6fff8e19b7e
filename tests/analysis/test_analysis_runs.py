"""Runs resume from their folder, refuse a folder of another run, and do not depend on the workers."""

from __future__ import annotations

import json

import polars as pl
import pytest

from nines.analysis import (
    ElyigitStudy,
    LocalExecutor,
    RunFolder,
    RunFolderError,
    analyze_elyigit,
    plan_chunks,
    run_study,
)
from nines.analysis.store import Chunk


def _identity(study: ElyigitStudy, chunk_size: int) -> dict:
    return {**study.identity(), "chunk_size": chunk_size}


def test_chunks_cover_the_deals_once():
    chunks = plan_chunks(23, 5)
    assert [(c.start, c.stop) for c in chunks] == [(0, 5), (5, 10), (10, 15), (15, 20), (20, 23)]
    with pytest.raises(ValueError):
        plan_chunks(0, 5)
    with pytest.raises(ValueError):
        plan_chunks(5, 0)


def test_a_rerun_solves_only_the_missing_chunks(tmp_path):
    study = ElyigitStudy(seed=31)
    folder = RunFolder(tmp_path, _identity(study, 4))
    first, stats = run_study(study, 16, folder, LocalExecutor(1), 4, progress=False)
    assert (stats.chunks_solved, stats.chunks_resumed, stats.solves) == (4, 0, 64)
    assert first["deal"].to_list() == list(range(16))
    (folder.chunk_dir / Chunk(4, 8).file_name).unlink()  # as if stopped before this chunk was written
    again, stats = run_study(study, 16, RunFolder(tmp_path, _identity(study, 4)), LocalExecutor(1), 4, progress=False)
    assert (stats.chunks_solved, stats.chunks_resumed, stats.solved, stats.resumed) == (1, 3, 4, 12)
    assert again.equals(first)
    more, stats = run_study(study, 22, folder, LocalExecutor(1), 4, progress=False)
    assert (stats.chunks_solved, stats.chunks_resumed) == (2, 4)
    assert more.head(16).equals(first) and more.height == 22
    assert not [p for p in folder.chunk_dir.iterdir() if p.name.endswith(".tmp")]


def test_a_folder_of_another_run_is_refused(tmp_path):
    RunFolder(tmp_path, _identity(ElyigitStudy(seed=1), 4))
    with pytest.raises(RunFolderError, match="seed: folder has 1, this run 2"):
        RunFolder(tmp_path, _identity(ElyigitStudy(seed=2), 4))
    with pytest.raises(RunFolderError, match="chunk_size"):
        RunFolder(tmp_path, _identity(ElyigitStudy(seed=1), 8))
    RunFolder(tmp_path, _identity(ElyigitStudy(seed=1), 4))  # the same run is welcome back


def test_a_folder_with_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="not empty"):
        RunFolder(tmp_path, _identity(ElyigitStudy(seed=1), 4))


def test_a_chunk_of_the_wrong_size_is_not_written(tmp_path):
    folder = RunFolder(tmp_path, _identity(ElyigitStudy(seed=1), 4))
    with pytest.raises(ValueError, match="should hold 4 deals"):
        folder.write_chunk(Chunk(0, 4), pl.DataFrame({"deal": [0, 1]}))


def test_two_processes_give_the_same_data_as_one(tmp_path):
    one = analyze_elyigit(12, 17, tmp_path / "one", LocalExecutor(1), chunk_size=3, progress=False)
    two = analyze_elyigit(12, 17, tmp_path / "two", LocalExecutor(2), chunk_size=3, progress=False)
    assert one.deals.equals(two.deals)
    assert two.stats.where == "2 local processes"
    manifest = json.loads((tmp_path / "two" / "run.json").read_text())
    assert manifest["deals"] == 12 and manifest["runs"][0]["solved"] == 12
    assert manifest["identity"]["seed"] == 17
