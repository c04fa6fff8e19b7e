"""What every report folder has: the run's facts, Markdown tables, the machine-readable results."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .runner import RunStats

__all__ = ["RESULTS", "SUMMARY", "RunContext", "markdown_table", "run_section", "write_results"]

SUMMARY = "summary.md"
RESULTS = "results.json"


@dataclass(frozen=True)
class RunContext:
    """The run a report describes."""

    identity: dict[str, Any]
    stats: RunStats
    command: str
    """the command line that reproduces the run"""
    history: list[dict[str, Any]] = field(default_factory=list)
    """every call into the run folder so far (:meth:`.store.RunFolder.record_run`), this one last"""


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """A Markdown table; ``align`` has one letter per column, ``l`` or ``r`` (default: l then r)."""
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---:" if a == "r" else ":---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def run_section(context: RunContext) -> str:
    stats = context.stats
    lines = [
        "## The run",
        "",
        (f"- Reproduce: `{context.command}` (deal *i* depends only on the seed and *i*; "
        "the same command on any machine or cluster gives the same numbers)."),
        f"- Deals: {stats.deals:,}, seed {context.identity['seed']}.",
        f"- This call: {stats.describe()}.",
    ]
    solving = [run for run in context.history if run.get("solved")]
    if len(solving) > 1 or (solving and not stats.solved):
        total = sum(run["solved"] for run in solving)
        seconds = sum(run["seconds"] for run in solving)
        rate = total / seconds if seconds else 0.0
        places = sorted({str(run["where"]) for run in solving})
        lines.append(
            f"- Solving, over {len(solving)} call(s) into this folder: {total:,} deals in {seconds:,.1f} s "
            f"({rate:,.1f} deals/s) on {', '.join(places)}."
        )
    return "\n".join(lines)


def write_results(path: Path, payload: dict[str, Any]) -> Path:
    target = path / RESULTS
    target.write_text(json.dumps(payload, indent=1) + "\n")
    return target
