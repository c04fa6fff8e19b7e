"""What a thirteen-card Le Neuf hand is worth, fitted to exactly solved deals.

Solving a whole deal exactly takes from a few milliseconds to many seconds (the
times are heavy-tailed), too slow to do a dozen times before each exchange.  So the
``expert`` values hands for the exchange with this linear model instead: the features
are the honours (guarded or not), length, voids and trumps, and the coefficients are
least-squares fitted to the exact paranoid value (the tricks the hand makes from the
first lead against the other two together) of random deals solved by
:mod:`nines.solver`, separately for trump and no-trump deals.

Regenerate the coefficients with ``python -m nines.bots.neuf_hand_value 1180`` (it
solves that many random deals and prints the fit and its R² on the fifth held out).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

FEATURES = (
    "aces", "guarded kings", "bare kings", "guarded queens", "short queens", "long jacks",
    "long cards", "voids", "singletons", "doubletons",
    "trumps", "trump ace", "trump king", "trump queen", "trump jack", "trump ten", "long trumps",
)

# ``fit(1180)``: 1180 random deals (3540 hands) solved exactly.  Held-out R² 0.68 with
# trumps, 0.49 at no trumps (the basic player's estimate: 0.64 and 0.46).
TRUMP_COEFFICIENTS: tuple[float, ...] = (
    -1.566, 1.156, 0.703, 0.373, 0.436, 0.293, 0.299, -0.114, 0.428, 0.275, -0.026,
    0.484, 1.321, 0.95, 0.675, 0.458, 0.37, 0.695,
)
"""Intercept first, then one per feature."""
NO_TRUMP_COEFFICIENTS: tuple[float, ...] = (
    -0.775, 1.467, 1.158, 0.177, 0.578, 0.588, 0.415, -0.001, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
)


def features(hand: Sequence[int], trump: int) -> list[float]:
    """The model's features of a hand of :mod:`nines.bots.tricksim` cards (ace high)."""
    lengths = [0, 0, 0, 0]
    for card in hand:
        lengths[card >> 4] += 1
    out = [0.0] * len(FEATURES)
    for card in hand:
        suit = card >> 4
        rank = card & 15
        length = lengths[suit]
        if suit == trump:
            if rank >= 10:  # trump ace, king, queen, jack, ten
                out[11 + 14 - rank] += 1
            continue
        if rank == 14:
            out[0] += 1
        elif rank == 13:
            out[1 if length >= 2 else 2] += 1
        elif rank == 12:
            out[3 if length >= 3 else 4] += 1
        elif rank == 11 and length >= 4:
            out[5] += 1
    for suit in range(4):
        if suit == trump:
            out[10] = lengths[suit]
            out[16] = max(0, lengths[suit] - 4)
            continue
        out[6] += max(0, lengths[suit] - 4)
        if trump >= 0:
            out[7] += lengths[suit] == 0
            out[8] += lengths[suit] == 1
            out[9] += lengths[suit] == 2
    return out


def hand_value(hand: Sequence[int], trump: int) -> float:
    """Expected exact tricks of the hand against the other two (trump ``-1``: no trumps)."""
    coefficients = TRUMP_COEFFICIENTS if trump >= 0 else NO_TRUMP_COEFFICIENTS
    value = coefficients[0]
    for weight, x in zip(coefficients[1:], features(hand, trump), strict=True):
        value += weight * x
    return value


def fit(deals: int, seed: int = 1) -> tuple[tuple[float, ...], tuple[float, ...], float, float]:  # pragma: no cover
    """Solve ``deals`` random deals and least-squares fit both models; returns them and their held-out R²."""
    import numpy as np

    from ..cards import Suit, ace_high, deck_52
    from ..solver import Solver, make_position
    from .tricksim import encode

    rng = random.Random(seed)
    solver = Solver(table_mb=64)
    rows: dict[bool, tuple[list[list[float]], list[float]]] = {True: ([], []), False: ([], [])}
    trumps = [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, None]
    for i in range(deals):
        deck = deck_52()
        rng.shuffle(deck)
        hands = {"S": deck[:13], "W": deck[13:26], "E": deck[26:39]}
        trump = trumps[i % len(trumps)]
        result = solver.solve(make_position("neuf", hands, trump, rng.choice(["S", "W", "E"])))
        index = -1 if trump is None else trump.index
        xs, ys = rows[trump is not None]
        for seat, cards in hands.items():
            xs.append([1.0, *features([encode(c, ace_high) for c in cards], index)])
            ys.append(float(result.tricks[seat]))
    fitted = []
    for has_trump in (True, False):
        xs, ys = rows[has_trump]
        x, y = np.array(xs), np.array(ys)
        cut = len(y) * 4 // 5
        beta, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
        residual = y[cut:] - x[cut:] @ beta
        r2 = 1 - residual.var() / y[cut:].var()
        beta, *_ = np.linalg.lstsq(x, y, rcond=None)
        fitted.append((tuple(round(float(b), 3) for b in beta), float(r2)))
    (trump_beta, trump_r2), (nt_beta, nt_r2) = fitted
    return trump_beta, nt_beta, trump_r2, nt_r2


if __name__ == "__main__":  # pragma: no cover
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    trump_beta, nt_beta, trump_r2, nt_r2 = fit(n)
    print(f"TRUMP_COEFFICIENTS = {trump_beta}  # held-out R2 {trump_r2:.3f}")
    print(f"NO_TRUMP_COEFFICIENTS = {nt_beta}  # held-out R2 {nt_r2:.3f}")
