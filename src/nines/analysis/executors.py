"""Where chunks are solved: this process, a pool of local processes, or a Ray cluster.

Every executor runs the same pure function of ``(study, chunk)`` and hands back each
chunk's per-deal table as soon as it is finished, in whatever order chunks finish; the
driver writes them to the run folder.  So the numbers never depend on where they were
computed, only the time does.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

import polars as pl

from .store import Chunk

LOCAL_START_TRIES = 4
"""How often a local Ray instance is started before its raylet's lateness is an error (see RayExecutor)."""

__all__ = ["Executor", "LocalExecutor", "RayExecutor", "Study", "make_executor", "solve_chunk"]


class Study(Protocol):
    """What a run solves for each deal (see :mod:`.elyigit` and :mod:`.neuf`)."""

    @property
    def game(self) -> str: ...

    @property
    def seed(self) -> int: ...

    @property
    def solves_per_deal(self) -> int: ...

    def identity(self) -> dict[str, Any]: ...

    def solve_chunk(self, chunk: Chunk) -> pl.DataFrame: ...


def solve_chunk(study: Study, chunk: Chunk) -> pl.DataFrame:
    """The unit of work shipped to a process or a Ray worker."""
    return study.solve_chunk(chunk)


class Executor(Protocol):
    workers: int

    def describe(self) -> str: ...

    def run(self, study: Study, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, pl.DataFrame]]: ...

    def close(self) -> None: ...


class LocalExecutor:
    """``workers`` processes on this machine; one worker solves in this very process."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"at least one worker, not {workers}")
        self.workers = workers

    def describe(self) -> str:
        return "this process" if self.workers == 1 else f"{self.workers} local processes"

    def run(self, study: Study, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, pl.DataFrame]]:
        if self.workers == 1 or len(chunks) <= 1:
            for chunk in chunks:
                yield chunk, solve_chunk(study, chunk)
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(self.workers, len(chunks)), mp_context=context) as pool:
            pending: dict[Future[pl.DataFrame], Chunk] = {pool.submit(solve_chunk, study, c): c for c in chunks}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        chunk = pending.pop(future)
                        yield chunk, future.result()
            finally:
                for future in pending:
                    future.cancel()

    def close(self) -> None:
        return None


class RayExecutor:
    """Chunks as Ray tasks, one CPU each, on the cluster at ``address``.

    ``address="local"`` starts a Ray instance on this machine with ``workers`` CPUs (default:
    all of them) and stops it again on :meth:`close`; any other address (``auto``,
    ``ray://host:10001``, ``host:6379``) joins a running cluster, whose nodes must have
    ``nines`` installed.  A Ray already started in this process is used as it is.
    """

    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            import ray
        except ModuleNotFoundError:
            raise RuntimeError("--ray needs Ray: pip install 'nines[ray]'") from None
        self._ray = ray
        self.address = address
        self._started = False
        if not ray.is_initialized():
            if address == "local":
                self._start_local(workers)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            self._started = True
        self.workers = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]  # ray is untyped
        self._remote = ray.remote(num_cpus=1, max_retries=2)(solve_chunk)

    def _start_local(self, workers: int | None) -> None:
        """Start a Ray instance on this machine.  Ray waits a fixed 30 s for its raylet to register (in its own
        code, not a setting): on a machine busy enough that it does not, the start is tried again, up to
        :data:`LOCAL_START_TRIES` times, before the error is let through."""
        ray = self._ray
        for attempt in range(1, LOCAL_START_TRIES + 1):
            try:
                ray.init(
                    num_cpus=workers or os.cpu_count() or 1,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
                return
            except Exception as error:  # Ray raises a bare Exception for a raylet that was late (re-raised below)
                ray.shutdown()
                if attempt == LOCAL_START_TRIES or "timed out during startup" not in str(error):
                    raise

    def describe(self) -> str:
        where = "a local Ray instance" if self.address == "local" else f"the Ray cluster at {self.address}"
        return f"{where} ({self.workers} CPUs)"

    def run(self, study: Study, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, pl.DataFrame]]:
        ray = self._ray
        study_ref = ray.put(study)
        pending = {self._remote.remote(study_ref, chunk): chunk for chunk in chunks}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    chunk = pending.pop(ref)
                    yield chunk, ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_executor(workers: int | None = None, ray_address: str | None = None) -> LocalExecutor | RayExecutor:
    """Ray at ``ray_address`` when given, else ``workers`` local processes (default: one per core)."""
    if ray_address:
        return RayExecutor(ray_address, workers)
    return LocalExecutor(workers or os.cpu_count() or 1)
