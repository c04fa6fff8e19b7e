"""Verdicts on claims about what features are worth, read off a fitted model.

A verdict is one of three words, with the numbers that decide it:

* **supported**: the data say so, beyond the 95% intervals;
* **not supported**: the data say otherwise, beyond the 95% intervals;
* **unclear**: the intervals allow either.

"Worth more than" compares two features' values per unit with the interval of their
*difference* (which accounts for their correlation).  "Worth almost nothing" means within
``threshold`` tricks per unit of zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .stats import Coefficient, Fit

__all__ = ["NOT_SUPPORTED", "SUPPORTED", "UNCLEAR", "Verdict", "fmt", "fmt_ci", "near_zero", "ranks_first"]

SUPPORTED = "supported"
NOT_SUPPORTED = "not supported"
UNCLEAR = "unclear"


@dataclass(frozen=True)
class Verdict:
    claim: str
    status: str
    evidence: str

    def to_dict(self) -> dict[str, str]:
        return {"claim": self.claim, "status": self.status, "evidence": self.evidence}


def fmt(value: float, digits: int = 2) -> str:
    return f"{value:+.{digits}f}"


def fmt_ci(c: Coefficient, digits: int = 2) -> str:
    return f"{c.value:+.{digits}f} [{c.low:+.{digits}f}, {c.high:+.{digits}f}]"


def ranks_first(claim: str, fit: Fit, feature: str, rivals: Sequence[str], labels: Mapping[str, str]) -> Verdict:
    """Is ``feature`` worth more per unit than every one of ``rivals``?"""
    differences = {rival: fit.difference(feature, rival) for rival in rivals}
    beaten_by = [r for r, d in differences.items() if d.high < 0]
    tied_with = [r for r, d in differences.items() if d.low <= 0 <= d.high]
    own = f"{labels[feature]}: {fmt_ci(fit[feature])} tricks"
    if not beaten_by and not tied_with:
        closest = min(rivals, key=lambda r: differences[r].value)
        evidence = (
            f"{own}; the closest, {labels[closest]}: {fmt_ci(fit[closest])}; "
            f"difference {fmt_ci(differences[closest])}"
        )
        return Verdict(claim, SUPPORTED, evidence)
    if beaten_by:
        listed = "; ".join(f"{labels[r]}: {fmt_ci(fit[r])} (difference {fmt_ci(differences[r])})" for r in beaten_by)
        return Verdict(claim, NOT_SUPPORTED, f"{own}; worth more: {listed}")
    listed = "; ".join(f"{labels[r]}: {fmt_ci(fit[r])} (difference {fmt_ci(differences[r])})" for r in tied_with)
    return Verdict(claim, UNCLEAR, f"{own}; not told apart from {listed}")


def near_zero(claim: str, coefficient: Coefficient, label: str, threshold: float) -> Verdict:
    """Is ``coefficient`` within ``threshold`` of zero?"""
    own = f"{label}: {fmt_ci(coefficient)} tricks per card (\"almost nothing\": within ±{threshold:.2f})"
    if -threshold <= coefficient.low and coefficient.high <= threshold:
        return Verdict(claim, SUPPORTED, own)
    if coefficient.low > threshold or coefficient.high < -threshold:
        return Verdict(claim, NOT_SUPPORTED, own)
    return Verdict(claim, UNCLEAR, own)
