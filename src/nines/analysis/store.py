"""The run folder: what a run is, the chunks it has finished, and the per-deal data.

A run is named by its *identity* (game, seed, chunk size, what is solved for each deal),
written to ``run.json`` when the folder is first used.  Each finished chunk of deals is one
Parquet file under ``chunks/``, named by the deal numbers it holds and written atomically
(to a temporary name, then renamed), so a run stopped at any moment leaves only whole
chunks behind.  Re-running into the same folder skips them; a run of another identity is
refused rather than mixed in.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

__all__ = ["FORMAT", "Chunk", "RunFolder", "RunFolderError", "plan_chunks"]

FORMAT = "nines-analysis/1"
MANIFEST = "run.json"
CHUNKS = "chunks"
_CHUNK_FILE = re.compile(r"^(\d{9})-(\d{9})\.parquet$")


class RunFolderError(ValueError):
    """The output folder holds another run, or something that is not a run."""


@dataclass(frozen=True, order=True)
class Chunk:
    """Deals ``start`` to ``stop - 1`` of a run."""

    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def file_name(self) -> str:
        return f"{self.start:09d}-{self.stop:09d}.parquet"


def plan_chunks(deals: int, chunk_size: int) -> list[Chunk]:
    """Deals ``0..deals-1`` in chunks of ``chunk_size`` (the last one may be shorter)."""
    if deals < 1:
        raise ValueError(f"a run needs at least one deal, not {deals}")
    if chunk_size < 1:
        raise ValueError(f"chunks hold at least one deal, not {chunk_size}")
    return [Chunk(start, min(start + chunk_size, deals)) for start in range(0, deals, chunk_size)]


class RunFolder:
    """An output folder bound to one run identity."""

    def __init__(self, path: Path, identity: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.identity = {"format": FORMAT, **identity}
        manifest = self.path / MANIFEST
        if manifest.exists():
            try:
                stored = json.loads(manifest.read_text())
            except json.JSONDecodeError as error:
                raise RunFolderError(f"{manifest} is not a run manifest ({error}); use another --out") from None
            known = stored.get("identity", {})
            # JSON turns tuples into lists: compare the two as JSON
            mine = json.loads(json.dumps(self.identity))
            if known != mine:
                differ = sorted(k for k in set(known) | set(mine) if known.get(k) != mine.get(k))
                listed = "; ".join(f"{k}: folder has {known.get(k)!r}, this run {mine.get(k)!r}" for k in differ)
                raise RunFolderError(
                    f"{self.path} holds another run ({listed}). Re-run with the folder's settings to resume it, "
                    "or choose another --out."
                )
        elif self.path.exists() and any(self.path.iterdir()):
            raise RunFolderError(f"{self.path} is not empty and holds no {MANIFEST}: choose an empty or new --out")
        self.chunk_dir.mkdir(parents=True, exist_ok=True)
        if not manifest.exists():
            self.write_json(MANIFEST, {"identity": self.identity})

    @property
    def chunk_dir(self) -> Path:
        return self.path / CHUNKS

    def finished(self) -> set[Chunk]:
        """Chunks already written by this run (or an earlier one into this folder)."""
        out = set()
        for entry in self.chunk_dir.iterdir():
            match = _CHUNK_FILE.match(entry.name)
            if match:
                out.add(Chunk(int(match.group(1)), int(match.group(2))))
        return out

    def write_chunk(self, chunk: Chunk, table: pl.DataFrame) -> None:
        if table.height != chunk.size:
            raise ValueError(f"chunk {chunk.start}-{chunk.stop} should hold {chunk.size} deals, not {table.height}")
        target = self.chunk_dir / chunk.file_name
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        table.write_parquet(temporary)
        os.replace(temporary, target)

    def read_chunks(self, chunks: Iterable[Chunk]) -> pl.DataFrame:
        """The per-deal data of ``chunks``, in deal order."""
        tables = [pl.read_parquet(self.chunk_dir / chunk.file_name) for chunk in sorted(chunks)]
        if not tables:
            raise RunFolderError(f"{self.path} has no finished chunks to read")
        return pl.concat(tables, how="vertical")

    def write_json(self, name: str, data: Mapping[str, Any]) -> Path:
        target = self.path / name
        temporary = target.with_name(f".{name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
        os.replace(temporary, target)
        return target

    def record_run(self, deals: int, stats: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Add one call's facts (deals asked for, timing) to the manifest; every call's so far."""
        manifest = json.loads((self.path / MANIFEST).read_text())
        manifest["deals"] = deals
        manifest.setdefault("runs", []).append(dict(stats))
        self.write_json(MANIFEST, manifest)
        return list(manifest["runs"])
