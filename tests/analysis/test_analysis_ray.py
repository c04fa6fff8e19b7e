"""The same run on a local Ray instance gives exactly the per-deal data of a local run."""

from __future__ import annotations

import pytest

from nines.analysis import LocalExecutor, RayExecutor, analyze_elyigit, analyze_neuf


@pytest.fixture(scope="module")
def ray_executor():
    executor = RayExecutor("local", workers=2)
    yield executor
    executor.close()


def test_elyigit_on_ray_matches_the_local_run(tmp_path, ray_executor):
    local = analyze_elyigit(36, 23, tmp_path / "local", LocalExecutor(1), chunk_size=6, progress=False)
    on_ray = analyze_elyigit(36, 23, tmp_path / "ray", ray_executor, chunk_size=6, progress=False)
    assert on_ray.stats.chunks_solved == 6
    assert "local Ray instance (2 CPUs)" in on_ray.stats.where
    assert on_ray.deals.equals(local.deals)
    assert (tmp_path / "ray" / "rows.parquet").read_bytes() == (tmp_path / "local" / "rows.parquet").read_bytes()


def test_a_ray_run_resumes_a_local_one(tmp_path, ray_executor):
    local = analyze_elyigit(12, 8, tmp_path, LocalExecutor(1), chunk_size=6, progress=False)
    more = analyze_elyigit(18, 8, tmp_path, ray_executor, chunk_size=6, progress=False)
    assert (more.stats.chunks_resumed, more.stats.chunks_solved) == (2, 1)
    assert more.deals.head(12).equals(local.deals)


def test_neuf_on_ray_matches_the_local_run(tmp_path, ray_executor):
    local = analyze_neuf(2, 4, tmp_path / "local", LocalExecutor(1), trumps=("NT",), chunk_size=1, progress=False)
    on_ray = analyze_neuf(2, 4, tmp_path / "ray", ray_executor, trumps=("NT",), chunk_size=1, progress=False)
    assert on_ray.deals.equals(local.deals)
