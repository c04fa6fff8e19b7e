"""What predicts the declaring side's tricks in Elyigit's Nines, and seed 003's claim tested.

Seed 003: "Solved exactly over many thousands of deals, the features that predict tricks are
not the ones card sense reaches for. A void is the most valuable thing on your hand, and a
nine is next. Long suits are worth almost nothing."

The models (docs/analysis/method.md): least squares of the declaring side's exact tricks on the
features of the declarer's nine cards (:data:`.elyigit.HAND_FEATURES`), errors
cluster-robust by deal, in two views of the trump suit:

* **all four trumps**: every deal once per trump suit (four rows a deal);
* **card-sense trump**: only the trump a player reaching for length names (one row a deal).

The dummy's hand enters a third model beside the declarer's, its value kept apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .elyigit import DECLARER, DUMMY, HAND_FEATURES, LEADER, TRICKS_COLUMNS, TRUMPS
from .plots import coefficient_plot, histogram_plot, means_plot
from .report import SUMMARY, RunContext, markdown_table, run_section, write_results
from .stats import Coefficient, Fit, GroupMean, Importance, group_means, importance, mean_ci, ols
from .verdicts import UNCLEAR, Verdict, fmt_ci, near_zero, ranks_first

__all__ = [
    "CLAIMS",
    "LABELS",
    "LONG_SUIT_THRESHOLD",
    "ElyigitAnalysis",
    "analyse_elyigit",
    "findings",
    "rankings",
    "write_elyigit_report",
]

LABELS: dict[str, str] = {
    "side_voids": "a void (side suit)",
    "side_singletons": "a singleton (side suit)",
    "nines": "a nine",
    "eights": "an eight",
    "sevens": "a seven",
    "sixes": "a six",
    "trump_length": "a trump (each one)",
    "longest_side_suit": "longest side suit (each card)",
}
"""The features as the report names them; ranks are valued against a low card (ace to five)."""

LONG_SUIT_THRESHOLD = 0.10
"""Tricks per card within which a long suit counts as "worth almost nothing"."""

DUMMY_FEATURES: tuple[str, ...] = tuple(f"dummy_{name}" for name in HAND_FEATURES)
MIN_GROUP_ROWS = 30
"""Groups of fewer rows are left off the plots (their means are noise)."""

CLAIMS = (
    "A void is the most valuable thing on your hand",
    "A nine is next (worth more than all but a void)",
    "Long suits are worth almost nothing",
)


@dataclass(frozen=True)
class ViewResult:
    """One view of the trump: the declarer's model, what each feature explains, the verdicts."""

    name: str
    title: str
    fit: Fit | None
    """``None`` when the rows cannot tell the features apart (a run of very few deals): see ``note``"""
    alone: dict[str, Coefficient | None]
    """each feature's slope with nothing else held fixed (what card sense sees)"""
    importance: list[Importance]
    verdicts: list[Verdict]
    note: str = ""


@dataclass(frozen=True)
class ElyigitAnalysis:
    deals: int
    views: list[ViewResult]
    with_dummy: Fit | None
    blocks: list[Importance]
    tricks_by_trump: dict[str, GroupMean]
    tricks_summary: dict[str, GroupMean]
    groups: dict[str, dict[str, list[GroupMean]]] = field(default_factory=dict)
    distributions: dict[str, np.ndarray] = field(default_factory=dict)

    def view(self, name: str) -> ViewResult:
        return next(v for v in self.views if v.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "features": LABELS,
            "views": {
                v.name: {
                    "title": v.title,
                    "fit": v.fit.to_dict() if v.fit else None,
                    "note": v.note,
                    "alone": {k: c.to_dict() if c else None for k, c in v.alone.items()},
                    "importance": [i.to_dict() for i in v.importance],
                    "verdicts": [x.to_dict() for x in v.verdicts],
                }
                for v in self.views
            },
            "with_dummy": self.with_dummy.to_dict() if self.with_dummy else None,
            "blocks": [b.to_dict() for b in self.blocks],
            "tricks_by_trump": {k: g.to_dict() for k, g in self.tricks_by_trump.items()},
            "tricks_summary": {k: g.to_dict() for k, g in self.tricks_summary.items()},
            "groups": {k: {s: [g.to_dict() for g in gs] for s, gs in v.items()} for k, v in self.groups.items()},
        }


def _matrix(rows: pl.DataFrame, names: tuple[str, ...]) -> np.ndarray:
    return rows.select(names).to_numpy().astype(float)


def _fit(x: np.ndarray, y: np.ndarray, names: tuple[str, ...], deals: np.ndarray) -> tuple[Fit | None, str]:
    """The model, or ``None`` and why not (too few deals to tell the features apart)."""
    try:
        return ols(x, y, names, clusters=deals), ""
    except ValueError as error:
        return None, str(error)


def _ci(fit: Fit | Coefficient | None, name: str | None = None) -> str:
    if fit is None:
        return "n/a"
    return fmt_ci(fit[name] if isinstance(fit, Fit) and name else fit)  # type: ignore[arg-type]


def _verdicts(fit: Fit | None, note: str) -> list[Verdict]:
    if fit is None:
        return [Verdict(claim, UNCLEAR, f"too few deals to fit the model: {note}") for claim in CLAIMS]
    others = [name for name in HAND_FEATURES if name != "side_voids"]
    nine = ranks_first(CLAIMS[1], fit, "nines", [n for n in others if n != "nines"], LABELS)
    against_void = fit.difference("nines", "side_voids")
    if against_void.low > 0:
        # the claim's order is void, then nine: say so when the nine is not second but first
        nine = Verdict(
            nine.claim,
            nine.status,
            f"{nine.evidence}; a nine is also worth more than a void (difference {fmt_ci(against_void)}): "
            "first, not next",
        )
    return [
        ranks_first(CLAIMS[0], fit, "side_voids", others, LABELS),
        nine,
        near_zero(CLAIMS[2], fit["longest_side_suit"], LABELS["longest_side_suit"], LONG_SUIT_THRESHOLD),
    ]


def _view(name: str, title: str, rows: pl.DataFrame) -> ViewResult:
    x = _matrix(rows, HAND_FEATURES)
    y = rows["tricks"].to_numpy().astype(float)
    deals = rows["deal"].to_numpy()
    fit, note = _fit(x, y, HAND_FEATURES, deals)
    alone = {}
    for j, feature in enumerate(HAND_FEATURES):
        single, _ = _fit(x[:, [j]], y, (feature,), deals)
        alone[feature] = single[feature] if single else None
    return ViewResult(name, title, fit, alone, importance(x, y, HAND_FEATURES), _verdicts(fit, note), note)


def analyse_elyigit(rows: pl.DataFrame) -> ElyigitAnalysis:
    """Fit every model of the report on the per-deal-and-trump rows (:func:`.elyigit.feature_rows`)."""
    chosen = rows.filter(pl.col("chosen") == 1)
    views = [
        _view("all", "all four trumps", rows),
        _view("card_sense", "the card-sense trump (declarer's longest suit)", chosen),
    ]
    names = HAND_FEATURES + DUMMY_FEATURES
    x = _matrix(rows, names)
    y = rows["tricks"].to_numpy().astype(float)
    deals = rows["deal"].to_numpy()
    with_dummy, _ = _fit(x, y, names, deals)
    blocks = [
        b
        for b in importance(x, y, names, {"declarer's hand": HAND_FEATURES, "dummy's hand": DUMMY_FEATURES})
        if b.name in ("declarer's hand", "dummy's hand")
    ]
    by_trump = {t: mean_ci(rows.filter(pl.col("trump") == t)["tricks"].to_numpy()) for t in TRUMPS}
    per_deal = rows.group_by("deal").agg(pl.col("tricks").max().alias("best"), pl.col("tricks").min().alias("worst"))
    summary = {
        "any trump": mean_ci(y, deals),
        "card-sense trump": mean_ci(chosen["tricks"].to_numpy()),
        "best trump for NS": mean_ci(per_deal["best"].to_numpy()),
        "worst trump for NS": mean_ci(per_deal["worst"].to_numpy()),
    }

    def by(column: str) -> dict[str, list[GroupMean]]:
        return {
            "all four trumps": group_means(rows[column].to_numpy(), y, deals, MIN_GROUP_ROWS),
            "card-sense trump": group_means(
                chosen[column].to_numpy(), chosen["tricks"].to_numpy(), None, MIN_GROUP_ROWS
            ),
        }

    groups = {
        "side_voids": by("side_voids"),
        "nines": by("nines"),
        "longest_suit": by("longest_suit"),
        "trump_length": {"all four trumps": group_means(rows["trump_length"].to_numpy(), y, deals, MIN_GROUP_ROWS)},
    }
    distributions = {
        "all four trumps": rows["tricks"].to_numpy(),
        "card-sense trump": chosen["tricks"].to_numpy(),
        "best trump for NS": per_deal["best"].to_numpy(),
    }
    return ElyigitAnalysis(
        deals=int(rows["deal"].n_unique()),
        views=views,
        with_dummy=with_dummy,
        blocks=blocks,
        tricks_by_trump=by_trump,
        tricks_summary=summary,
        groups=groups,
        distributions=distributions,
    )


# --- the report -------------------------------------------------------------------------

PLOTS = {
    "feature_values.png": "What each feature is worth (others held fixed), declarer and dummy",
    "tricks_by_side_voids.png": "Tricks by the declarer's voids in side suits",
    "tricks_by_nines.png": "Tricks by the declarer's nines",
    "tricks_by_longest_suit.png": "Tricks by the length of the declarer's longest suit",
    "tricks_by_trump_length.png": "Tricks by the declarer's trumps",
    "tricks_distribution.png": "How many tricks the declaring side takes",
}


def _plots(analysis: ElyigitAnalysis, out: Path) -> list[Path]:
    ylabel = "declaring side's tricks (mean, 95% interval)"
    g = analysis.groups
    all_view = analysis.view("all")
    both = analysis.with_dummy.coefficients if analysis.with_dummy else ()
    dummy = [c for c in both if c.name.startswith("dummy_")]
    declarer = [c for c in both if not c.name.startswith("dummy_")]
    return [
        coefficient_plot(
            out / "feature_values.png",
            "Elyigit's Nines: value of a feature in tricks",
            LABELS,
            {"declarer, all trumps": all_view.fit.coefficients if all_view.fit else (),
             "declarer (dummy in the model)": declarer,
             "dummy": dummy},
        ),
        means_plot(out / "tricks_by_side_voids.png", "Tricks by the declarer's side-suit voids",
                   "voids in side suits", ylabel, g["side_voids"]),
        means_plot(out / "tricks_by_nines.png", "Tricks by the declarer's nines", "nines held", ylabel, g["nines"]),
        means_plot(out / "tricks_by_longest_suit.png", "Tricks by the declarer's longest suit",
                   "cards in the longest suit", ylabel, g["longest_suit"]),
        means_plot(out / "tricks_by_trump_length.png", "Tricks by the declarer's trumps", "trumps held", ylabel,
                   g["trump_length"]),
        histogram_plot(out / "tricks_distribution.png", "Declaring side's tricks (exact)", "tricks of 9",
                       analysis.distributions),
    ]


def findings(analysis: ElyigitAnalysis) -> list[str]:
    """The headline numbers in words, each sentence built from the fitted values."""
    every, sense = analysis.view("all"), analysis.view("card_sense")
    if every.fit is None or sense.fit is None or analysis.with_dummy is None:
        return ["Too few deals to fit the models: run more deals (the same folder resumes)."]
    out = []
    for view in (every, sense):
        assert view.fit is not None
        best = max(view.fit.coefficients, key=lambda c: c.value)
        out.append(
            f"With {view.title}, the most valuable feature per unit is **{LABELS[best.name]}**, "
            f"{fmt_ci(best)} tricks; a void is worth {fmt_ci(view.fit['side_voids'])}, "
            f"a trump {fmt_ci(view.fit['trump_length'])}, "
            f"a card of the longest side suit {fmt_ci(view.fit['longest_side_suit'])}."
        )
    length = analysis.groups["longest_suit"]["card-sense trump"]
    anywhere = [g.mean for g in analysis.groups["longest_suit"]["all four trumps"]]
    if len(length) > 1 and anywhere:
        short, long = length[0], length[-1]
        out.append(
            f"Length counts as trumps: naming the longest suit, the declaring side takes {short.mean:.2f} tricks with "
            f"a longest suit of {short.value} cards and {long.mean:.2f} with {long.value}; over all four trumps the "
            f"mean stays between {min(anywhere):.2f} and {max(anywhere):.2f} whatever the longest suit's length."
        )
    top = max(every.importance, key=lambda i: i.drop)
    out.append(
        f"What the declarer's hand explains ({every.fit.r2:.2f} of the variance of the tricks over all four trumps) "
        f"rests mostly on **{LABELS[top.name]}**: without it the model loses {top.drop:.3f} of R², against "
        f"{max(i.drop for i in every.importance if i.name != top.name):.3f} for the next feature."
    )
    blocks = {b.name: b.alone for b in analysis.blocks}
    declarer, dummy = blocks["declarer's hand"], blocks["dummy's hand"]
    out.append(
        f"The dummy's nine cards, unseen at the bidding, matter as much as the declarer's: R² {declarer:.2f} for the "
        f"declarer's hand alone, {dummy:.2f} for the dummy's alone, {analysis.with_dummy.r2:.2f} for both."
    )
    return out


def rankings(analysis: ElyigitAnalysis) -> list[str]:
    """One line per view: the features by value per unit; and by R² lost without each."""
    out = []
    for view in analysis.views:
        if view.fit is None:
            out.append(f"{view.title}: too few deals")
            continue
        ordered = sorted(view.fit.coefficients, key=lambda c: -c.value)
        out.append(f"{view.title}, per unit: " + ", ".join(f"{LABELS[c.name]} {c.value:+.2f}" for c in ordered))
    every = analysis.view("all")
    ordered_r2 = sorted(every.importance, key=lambda i: -i.drop)
    out.append(
        f"{every.title}, by R² lost without it: " + ", ".join(f"{LABELS[i.name]} {i.drop:.3f}" for i in ordered_r2)
    )
    return out


def _r2(view: ViewResult) -> str:
    if view.fit is None:
        return "n/a (too few deals)"
    return f"{view.fit.r2:.3f} ({view.fit.n:,} rows, {view.fit.clusters:,} deals)"


def _status(verdict: Verdict) -> str:
    return f"**{verdict.status}**"


def _summary(analysis: ElyigitAnalysis, context: RunContext) -> str:
    all_view, sense = analysis.view("all"), analysis.view("card_sense")
    lines = [
        "# Elyigit's Nines: what predicts the declaring side's tricks",
        "",
        (f"{analysis.deals:,} random deals, each solved exactly for every trump suit: **{DECLARER} declares, "
        f"{DUMMY} is the dummy, {LEADER} (the defender on the declarer's left) leads**, all nine tricks "
        "played out; the number modelled is the tricks of the declaring side NS."),
        "",
        run_section(context),
        "",
        "## What the data say",
        "",
        *[f"- {line}" for line in findings(analysis)],
        "",
        "## Seed 003's claim",
        "",
        "> A void is the most valuable thing on your hand, and a nine is next. Long suits are worth almost nothing.",
        "",
        ("Each part is judged on the value per unit of the declarer's features, the others held fixed "
        "(least squares, 95% intervals cluster-robust by deal); \"worth more than\" compares two features by the "
        "interval of their difference; \"almost nothing\" means within "
        f"±{LONG_SUIT_THRESHOLD:.2f} tricks per card."),
        "",
    ]
    verdict_rows = []
    for k, claim in enumerate(CLAIMS):
        a, s = all_view.verdicts[k], sense.verdicts[k]
        verdict_rows.append([claim, _status(a), _status(s), a.evidence])
    lines += [
        markdown_table(["claim", "all four trumps", "card-sense trump", "evidence (all four trumps)"], verdict_rows,
                       "lccl"),
        "",
        "Evidence with the card-sense trump only:",
        "",
    ]
    lines += [f"- {v.claim}: {v.evidence}" for v in sense.verdicts]
    lines += ["", "The declarer's features in order of value per unit, and of what each explains that the others do not:", ""]
    lines += [f"- {line}" for line in rankings(analysis)]
    lines += ["", "## What each feature of the declarer's hand is worth", ""]
    header = [
        "feature (one more)",
        "all trumps: tricks [95%]",
        "card-sense trump",
        "with the dummy in the model",
        "alone (nothing held fixed)",
        "R² alone",
        "R² lost without it",
    ]
    imp = {i.name: i for i in all_view.importance}
    rows = [
        [
            LABELS[name],
            _ci(all_view.fit, name),
            _ci(sense.fit, name),
            _ci(analysis.with_dummy, name),
            _ci(all_view.alone[name]),
            f"{imp[name].alone:.3f}",
            f"{imp[name].drop:.3f}",
        ]
        for name in HAND_FEATURES
    ]
    lines += [
        markdown_table(header, rows),
        "",
        (f"R² of the declarer's model: {_r2(all_view)} over all four trumps, {_r2(sense)} with the card-sense trump. "
        "Ranks are counted against a low card (ace to five): *a nine* is what a nine is worth instead of a low card. "
        "*Alone* is the slope with nothing else held fixed, what a look at one feature shows; "
        "*R² lost without it* is what it explains that the other features do not."),
        "",
        "## The dummy's hand, kept apart",
        "",
    ]
    both = analysis.with_dummy
    rows = [[LABELS[n], _ci(both, n), _ci(both, f"dummy_{n}")] for n in HAND_FEATURES]
    lines += [markdown_table(["feature (one more)", "declarer's hand", "dummy's hand"], rows), ""]
    block_text = "; ".join(f"{b.name}: R² alone {b.alone:.3f}, lost without it {b.drop:.3f}" for b in analysis.blocks)
    r2 = f"{both.r2:.3f}" if both else "n/a (too few deals)"
    lines += [f"Both hands in one model (all four trumps): R² {r2}. {block_text}.", ""]
    lines += ["## Tricks by trump", ""]
    rows = [[f"trump {t}", f"{g.mean:.3f} [{g.low:.3f}, {g.high:.3f}]"] for t, g in analysis.tricks_by_trump.items()]
    rows += [[k, f"{g.mean:.3f} [{g.low:.3f}, {g.high:.3f}]"] for k, g in analysis.tricks_summary.items()]
    lines += [markdown_table(["declaring side's tricks", "mean [95%]"], rows), ""]
    lines += ["## Plots", ""]
    lines += [f"![{title}]({name})" for name, title in PLOTS.items()]
    lines += [
        "",
        "## Files",
        "",
        ("- `deals.parquet`: one row per deal: `deal` (its number), `hands` (N E S W in the project's deal "
        f"notation, ace low), and the declaring side's tricks with each trump: "
        f"{', '.join('`' + c + '`' for c in TRICKS_COLUMNS.values())}."),
        ("- `rows.parquet`: one row per deal and trump: `tricks`, `chosen` (the card-sense trump), every feature "
        "of the declarer's hand and the dummy's (`dummy_` prefix)."),
        ("- `results.json`: every number above; `run.json`: the run's identity and timing; `chunks/`: the solved "
        "chunks a re-run resumes from."),
        "",
    ]
    return "\n".join(lines)


def write_elyigit_report(analysis: ElyigitAnalysis, out: Path, context: RunContext) -> list[Path]:
    """``summary.md``, ``results.json`` and the plots, into ``out``."""
    written = _plots(analysis, out)
    summary = out / SUMMARY
    summary.write_text(_summary(analysis, context))
    payload = {"run": {"identity": context.identity, "stats": context.stats.to_dict(), "command": context.command}}
    payload.update(analysis.to_dict())
    written += [summary, write_results(out, payload)]
    return written
