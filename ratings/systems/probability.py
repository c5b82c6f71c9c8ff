"""Chances of finishing first from pairwise expectations (Glicko-2 and Elo).

If side i beats side j with odds exp(t_i - t_j) for some strengths t, the Luce choice
model gives side i the chance exp(t_i) / sum_k exp(t_k) of finishing first. Taking the
geometric mean of side i's odds, prod_j (odds_ij) ** (1/n), recovers exp(t_i - mean t)
exactly in that case, and is a symmetric, order-free aggregate when the pairwise odds are
only approximately consistent (Glicko-2's g(phi) differs per pair). With two sides it
returns the pairwise expectation itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

_EDGE = 1e-12


def log_odds(p: float) -> float:
    clipped = min(max(p, _EDGE), 1.0 - _EDGE)
    return math.log(clipped / (1.0 - clipped))


def luce_first(count: int, expectation: Callable[[int, int], float]) -> list[float]:
    """Chance of each of ``count`` sides to finish first, from ``expectation(a, b)``."""
    logits = []
    for a in range(count):
        total = 0.0
        for b in range(count):
            if b != a:
                total += log_odds(expectation(a, b))
        logits.append(total / count)
    top = max(logits)
    weights = [math.exp(logit - top) for logit in logits]
    norm = sum(weights)
    return [weight / norm for weight in weights]
