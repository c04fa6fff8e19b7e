"""Le Neuf: what the exchange gains or loses, and how trumps spread the tricks.

Every number comes from exact paranoid values (:mod:`.neuf`).  By symmetry S's own hand and
the spare hand are two random hands dealt from the same cards, so the exchange gains
*nothing on average over all deals*: the report measures that as a check, then what the
exchange gains a hand of each strength, and what knowing when to exchange is worth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .neuf import DEALER, FIRST, value_column
from .plots import histogram_plot, means_plot
from .report import SUMMARY, RunContext, markdown_table, run_section, write_results
from .stats import GroupMean, group_means, mean_ci

__all__ = ["QUOTA", "NeufAnalysis", "TrumpSummary", "analyse_neuf", "statements", "write_neuf_report"]

QUOTA = 4
"""Tricks each of the three players needs (the standard game)."""
BOOTSTRAP = 1000
MIN_GROUP_ROWS = 10


def _fmt(g: GroupMean, digits: int = 2) -> str:
    return f"{g.mean:+.{digits}f} [{g.low:+.{digits}f}, {g.high:+.{digits}f}]"


def _plain(g: GroupMean, digits: int = 2) -> str:
    return f"{g.mean:.{digits}f} [{g.low:.{digits}f}, {g.high:.{digits}f}]"


@dataclass(frozen=True)
class TrumpSummary:
    """One trump (or a pool of them): values, the exchange, the spread."""

    label: str
    rows: int
    own: GroupMean
    spare: GroupMean
    gain: GroupMean
    gain_share: float
    loss_share: float
    mean_abs_gain: float
    oracle: GroupMean
    """what exchanging exactly when the spare is better would gain (knowing both values)"""
    weak_rule: GroupMean
    """what exchanging exactly when the own hand falls short of the quota gains, per deal"""
    own_sd: float
    within_spread: GroupMean
    """largest minus smallest of the three players' paranoid values on the deal as dealt"""
    quota_share: float

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "rows": self.rows}
        for name in ("own", "spare", "gain", "oracle", "weak_rule", "within_spread"):
            out[name] = getattr(self, name).to_dict()
        out.update(
            gain_share=self.gain_share, loss_share=self.loss_share, mean_abs_gain=self.mean_abs_gain,
            own_sd=self.own_sd, quota_share=self.quota_share,
        )
        return out


@dataclass(frozen=True)
class NeufAnalysis:
    deals: int
    trumps: tuple[str, ...]
    by_trump: list[TrumpSummary]
    pooled: list[TrumpSummary]
    spread_difference: tuple[float, float, float] | None
    """SD of S's tricks with a trump suit minus with no trumps: estimate, 95% bootstrap interval"""
    gain_by_own: dict[str, list[GroupMean]] = field(default_factory=dict)
    distributions: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "trumps": list(self.trumps),
            "by_trump": [s.to_dict() for s in self.by_trump],
            "pooled": [s.to_dict() for s in self.pooled],
            "spread_difference": self.spread_difference,
            "gain_by_own": {k: [g.to_dict() for g in v] for k, v in self.gain_by_own.items()},
        }


def _stack(deals: pl.DataFrame, trumps: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The chosen trumps' values one under the other, with the deal of each row."""
    out: dict[str, list[np.ndarray]] = {"deal": [], "S_own": [], "S_spare": [], "W": [], "E": []}
    for code in trumps:
        out["deal"].append(deals["deal"].to_numpy())
        for value in ("S_own", "S_spare", "W", "E"):
            out[value].append(deals[value_column(value, code)].to_numpy().astype(float))
    return {k: np.concatenate(v) for k, v in out.items()}


def _summary(label: str, data: dict[str, np.ndarray]) -> TrumpSummary:
    deal = data["deal"]
    own, spare = data["S_own"], data["S_spare"]
    gain = spare - own
    three = np.column_stack([own, data["W"], data["E"]])
    return TrumpSummary(
        label=label,
        rows=len(own),
        own=mean_ci(own, deal),
        spare=mean_ci(spare, deal),
        gain=mean_ci(gain, deal),
        gain_share=float((gain > 0).mean()),
        loss_share=float((gain < 0).mean()),
        mean_abs_gain=float(np.abs(gain).mean()),
        oracle=mean_ci(np.maximum(gain, 0), deal),
        weak_rule=mean_ci(np.where(own < QUOTA, gain, 0.0), deal),
        own_sd=float(own.std(ddof=1)) if len(own) > 1 else float("nan"),
        within_spread=mean_ci(three.max(axis=1) - three.min(axis=1), deal),
        quota_share=float((own >= QUOTA).mean()),
    )


def _sd_difference(deals: pl.DataFrame, suits: tuple[str, ...]) -> tuple[float, float, float] | None:
    """SD of S's own-hand tricks over the trump suits minus over no trumps, bootstrapped by deal."""
    if not suits or len(deals) < 3:
        return None
    suit_values = np.column_stack([deals[value_column("S_own", t)].to_numpy() for t in suits]).astype(float)
    nt_values = deals[value_column("S_own", "NT")].to_numpy().astype(float)

    def difference(index: np.ndarray) -> float:
        return float(suit_values[index].reshape(-1).std(ddof=1) - nt_values[index].std(ddof=1))

    n = len(nt_values)
    estimate = difference(np.arange(n))
    rng = np.random.default_rng(n)  # fixed: the same data give the same interval
    draws = np.array([difference(rng.integers(0, n, n)) for _ in range(BOOTSTRAP)])
    return estimate, float(np.quantile(draws, 0.025)), float(np.quantile(draws, 0.975))


def analyse_neuf(deals: pl.DataFrame, trumps: tuple[str, ...]) -> NeufAnalysis:
    suits = tuple(t for t in trumps if t != "NT")
    by_trump = [_summary(f"trump {t}" if t != "NT" else "no trumps", _stack(deals, (t,))) for t in trumps]
    pooled = []
    if len(suits) > 1:
        pooled.append(_summary("a trump suit (pooled)", _stack(deals, suits)))
    if len(trumps) > 1:
        pooled.append(_summary("every trump (pooled)", _stack(deals, trumps)))
    gain_by_own: dict[str, list[GroupMean]] = {}
    distributions: dict[str, dict[str, np.ndarray]] = {"gain": {}, "own": {}}
    for label, codes in (("a trump suit", suits), ("no trumps", ("NT",) if "NT" in trumps else ())):
        if not codes:
            continue
        data = _stack(deals, codes)
        gain = data["S_spare"] - data["S_own"]
        gain_by_own[label] = group_means(data["S_own"].astype(int), gain, data["deal"], MIN_GROUP_ROWS)
        distributions["gain"][label] = gain
        distributions["own"][label] = data["S_own"]
    return NeufAnalysis(
        deals=len(deals),
        trumps=trumps,
        by_trump=by_trump,
        pooled=pooled,
        spread_difference=_sd_difference(deals, suits) if "NT" in trumps else None,
        gain_by_own=gain_by_own,
        distributions=distributions,
    )


PLOTS = {
    "exchange_gain_by_own.png": "What the exchange gains, by what the own hand would make",
    "exchange_gain_distribution.png": "What the exchange gains, deal by deal",
    "tricks_spread.png": "S's paranoid tricks with a trump suit and with no trumps",
}


def _plots(analysis: NeufAnalysis, out: Path) -> list[Path]:
    return [
        means_plot(out / "exchange_gain_by_own.png", "Le Neuf: exchange gain by own-hand tricks",
                   "S's paranoid tricks with its own hand", "tricks gained by taking the spare (mean, 95%)",
                   analysis.gain_by_own),
        histogram_plot(out / "exchange_gain_distribution.png", "Le Neuf: tricks gained by the exchange",
                       "spare-hand tricks minus own-hand tricks", analysis.distributions["gain"]),
        histogram_plot(out / "tricks_spread.png", "Le Neuf: S's paranoid tricks", "tricks of 13",
                       analysis.distributions["own"]),
    ]


def statements(analysis: NeufAnalysis) -> list[str]:
    every = analysis.pooled[-1] if analysis.pooled else analysis.by_trump[0]
    lines = [
        (f"- **On average the exchange gains {_fmt(every.gain)} tricks** ({every.label}). Zero is what symmetry "
        "predicts: the own and the spare hand are two random hands from the same cards. It moves a hand "
        f"{every.mean_abs_gain:.2f} tricks either way on average: it gains on {every.gain_share:.0%} of deals and "
        f"loses on {every.loss_share:.0%}."),
        (f"- **Knowing when to exchange is what pays**: exchanging exactly when the own hand makes fewer than "
        f"{QUOTA} tricks gains {_fmt(every.weak_rule)} per deal; exchanging exactly when the spare is better "
        f"(knowing both, an upper bound) {_fmt(every.oracle)}."),
    ]
    by_label = {s.label: s for s in analysis.by_trump + analysis.pooled}
    suits = [t for t in analysis.trumps if t != "NT"]
    suit_label = "a trump suit (pooled)" if len(suits) > 1 else (f"trump {suits[0]}" if suits else "")
    if suit_label in by_label and "no trumps" in by_label and analysis.spread_difference:
        suit, nt = by_label[suit_label], by_label["no trumps"]
        d, lo, hi = analysis.spread_difference
        if lo > 0:
            word = "a trump suit widens the spread of a player's tricks"
        elif hi < 0:
            word = "a trump suit narrows the spread of a player's tricks"
        else:
            word = "no clear difference in the spread of a player's tricks"
        lines.append(
            f"- **Trumps against no trumps: {word}.** S's tricks have a standard deviation of {suit.own_sd:.2f} with "
            f"a trump suit and {nt.own_sd:.2f} with no trumps (difference {d:+.2f}, 95% bootstrap interval "
            f"[{lo:+.2f}, {hi:+.2f}]); the three players' values on one deal lie "
            f"{suit.within_spread.mean:.2f} tricks apart with a trump suit and {nt.within_spread.mean:.2f} "
            "with no trumps (largest minus smallest)."
        )
    return lines


def _summary_md(analysis: NeufAnalysis, context: RunContext) -> str:
    lines = [
        "# Le Neuf: the exchange and the trumps",
        "",
        (f"{analysis.deals:,} random deals, each solved exactly for {', '.join(analysis.trumps)}: **{DEALER} deals, "
        f"so {FIRST} is first to exchange and leads**. Every value is a *paranoid* value: the most tricks a player "
        "takes when the other two play together against it (so the three need not add up to 13). "
        f"The exchange is {FIRST}'s: its value with the spare hand instead of its own, W and E keeping theirs."),
        "",
        run_section(context),
        "",
        "## What the data say",
        "",
        *statements(analysis),
        "",
        "## By trump",
        "",
    ]
    header = ["trump", "S own hand", "S with the spare", "gain [95%]", "gains", "loses", "mean |gain|",
              f"gain if exchanging below {QUOTA}", "SD of S's tricks", f"S makes {QUOTA}+", "spread of the three"]
    rows = [
        [
            s.label, _plain(s.own), _plain(s.spare), _fmt(s.gain), f"{s.gain_share:.0%}", f"{s.loss_share:.0%}",
            f"{s.mean_abs_gain:.2f}", _fmt(s.weak_rule), f"{s.own_sd:.2f}", f"{s.quota_share:.0%}",
            f"{s.within_spread.mean:.2f}",
        ]
        for s in analysis.by_trump + analysis.pooled
    ]
    lines += [markdown_table(header, rows), ""]
    lines += ["## What the exchange gains a hand of each strength", ""]
    header = ["S's tricks with its own hand"] + [f"gain, {label}" for label in analysis.gain_by_own]
    values = sorted({g.value for groups in analysis.gain_by_own.values() for g in groups})
    gain_rows: list[list[object]] = []
    for v in values:
        row: list[object] = [v]
        for groups in analysis.gain_by_own.values():
            match = next((g for g in groups if g.value == v), None)
            row.append(f"{_fmt(match)} ({match.rows} rows)" if match else "")
        gain_rows.append(row)
    lines += [markdown_table(header, gain_rows), ""]
    lines += ["## Plots", ""]
    lines += [f"![{title}]({name})" for name, title in PLOTS.items()]
    cols = ", ".join(f"`{v}_<trump>`" for v in ("S_own", "S_spare", "W", "E"))
    lines += [
        "",
        "## Files",
        "",
        (f"- `deals.parquet`: one row per deal: `deal`, `hands` (S W E in the project's deal notation, ace high), "
        f"`spare` (the spare hand), and for each trump {cols}."),
        ("- `results.json`: every number above; `run.json`: the run's identity and timing; `chunks/`: the solved "
        "chunks a re-run resumes from."),
        "",
    ]
    return "\n".join(lines)


def write_neuf_report(analysis: NeufAnalysis, out: Path, context: RunContext) -> list[Path]:
    written = _plots(analysis, out)
    summary = out / SUMMARY
    summary.write_text(_summary_md(analysis, context))
    payload = {"run": {"identity": context.identity, "stats": context.stats.to_dict(), "command": context.command}}
    payload.update(analysis.to_dict())
    written += [summary, write_results(out, payload)]
    return written
