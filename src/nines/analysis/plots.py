"""Report figures as PNG files (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .stats import Coefficient, GroupMean

__all__ = ["coefficient_plot", "histogram_plot", "means_plot"]

_DPI = 110


def _save(figure: Figure, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=_DPI, bbox_inches="tight")
    plt.close(figure)
    return path


def means_plot(
    path: Path, title: str, xlabel: str, ylabel: str, series: Mapping[str, Sequence[GroupMean]]
) -> Path:
    """Mean outcome for each value of a feature, one line per series, with 95% intervals."""
    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    count = max(1, len(series))
    drawn = 0
    for k, (label, groups) in enumerate(series.items()):
        if not groups:
            continue
        drawn += 1
        shift = (k - (count - 1) / 2) * 0.06  # keep the error bars of the lines apart
        x = np.array([g.value for g in groups], dtype=float) + shift
        y = np.array([g.mean for g in groups])
        low = np.array([g.low for g in groups])
        high = np.array([g.high for g in groups])
        axes.errorbar(x, y, yerr=[y - low, high - y], marker="o", capsize=3, label=label)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3)
    locator = axes.xaxis.get_major_locator()
    assert isinstance(locator, MaxNLocator)  # matplotlib's default locator: whole numbers only
    locator.set_params(integer=True)
    if not drawn:
        axes.text(0.5, 0.5, "too few deals for any group", ha="center", va="center", transform=axes.transAxes)
    elif len(series) > 1:
        axes.legend()
    return _save(figure, path)


def coefficient_plot(
    path: Path, title: str, labels: Mapping[str, str], series: Mapping[str, Sequence[Coefficient]]
) -> Path:
    """Each feature's value (a point) and its 95% interval (a bar), one colour per series."""
    names = list(labels)
    figure, axes = plt.subplots(figsize=(7.2, 0.45 * len(names) + 1.4))
    count = max(1, len(series))
    for k, (label, coefficients) in enumerate(series.items()):
        by_name = {c.name.removeprefix("dummy_"): c for c in coefficients}
        rows = [i for i, name in enumerate(names) if name in by_name]
        y = np.array(rows, dtype=float) + (k - (count - 1) / 2) * 0.22
        values = np.array([by_name[names[i]].value for i in rows])
        low = np.array([by_name[names[i]].low for i in rows])
        high = np.array([by_name[names[i]].high for i in rows])
        axes.errorbar(values, y, xerr=[values - low, high - values], fmt="o", capsize=3, label=label)
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_yticks(range(len(names)), [labels[name] for name in names])
    axes.invert_yaxis()
    axes.set_xlabel("tricks per unit, others held fixed (95% interval)")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    if len(series) > 1:
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.55 / (0.45 * len(names) + 1.4)), ncol=len(series),
                    frameon=False)
    return _save(figure, path)


def histogram_plot(
    path: Path, title: str, xlabel: str, series: Mapping[str, np.ndarray], *, integer: bool = True
) -> Path:
    """Share of deals at each value, one set of bars (or steps) per series."""
    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    values = [np.asarray(v) for v in series.values() if len(v)]
    if values:
        lo = min(int(v.min()) for v in values)
        hi = max(int(v.max()) for v in values)
        bins: list[float] | int = np.arange(lo - 0.5, hi + 1.5, 1.0).tolist() if integer else 30
        for label, data in series.items():
            if len(data):
                weights = np.full(len(data), 1.0 / len(data))
                axes.hist(data, bins=bins, weights=weights, histtype="step", linewidth=1.8, label=label)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of deals")
    axes.grid(alpha=0.3)
    if len(series) > 1:
        axes.legend()
    return _save(figure, path)
