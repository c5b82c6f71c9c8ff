"""Estimating the seat-order term from rated history.

The size of the term (``seat_strength``, see systems/seat.py) is the value that best
predicts the games it applies to: we replay the history, predict every pairwise
encounter of each game of three or more players from the states *before* its period,
and take the strength with the lowest mean cross-entropy against the pairwise dropped
score share (a prequential fit, as liglicko2 fitted Lichess's first-move advantage).
The search is a golden-section search over a fixed interval, so the same history always
gives the same estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .replay import Unreadable, rate_one_period
from .systems import seat
from .systems.base import RatedGame, RatingSystem
from .systems.decompose import pair_share, side_out

_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


@dataclass(frozen=True, slots=True)
class SeatFit:
    strength: float
    log_loss: float
    log_loss_without: float
    encounters: int


def cross_entropy(share: float, predicted: float) -> float:
    """Loss of predicting ``predicted`` for an outcome ``share`` in [0, 1]."""
    p = min(max(predicted, 1e-12), 1.0 - 1e-12)
    return -(share * math.log(p) + (1.0 - share) * math.log(1.0 - p))


def seat_log_loss(
    system: RatingSystem[Any],
    priors: Mapping[str, Any],
    periods: Sequence[Sequence[RatedGame | Unreadable]],
    target: int = 3,
) -> tuple[float, int]:
    """Mean prequential cross-entropy over the encounters of 3+-player games."""
    states: Mapping[str, Any] = priors
    total = 0.0
    count = 0
    for index, games in enumerate(periods):
        for game in games:
            if not isinstance(game, RatedGame) or not seat.applies(game) or system.check_game(game):
                continue
            outs = side_out(game)
            for a in range(len(outs)):
                for b in range(a + 1, len(outs)):
                    predicted = system.pairwise_expectation(states, game, a, b)
                    total += cross_entropy(pair_share(outs[a], outs[b], target), predicted)
                    count += 1
        states = rate_one_period(system, states, games, index).states
    return (total / count if count else 0.0), count


def estimate_seat_strength(
    make_system: Callable[[float], RatingSystem[Any]],
    priors: Mapping[str, Any],
    periods: Sequence[Sequence[RatedGame | Unreadable]],
    low: float = -0.5,
    high: float = 0.5,
    tolerance: float = 0.01,
) -> SeatFit:
    """The seat strength in [low, high] with the lowest ``seat_log_loss``."""

    def loss(strength: float) -> float:
        return seat_log_loss(make_system(strength), priors, periods)[0]

    a, b = low, high
    c = b - _GOLDEN * (b - a)
    d = a + _GOLDEN * (b - a)
    loss_c, loss_d = loss(c), loss(d)
    while b - a > tolerance:
        if loss_c <= loss_d:
            b, d, loss_d = d, c, loss_c
            c = b - _GOLDEN * (b - a)
            loss_c = loss(c)
        else:
            a, c, loss_c = c, d, loss_d
            d = a + _GOLDEN * (b - a)
            loss_d = loss(d)
    best = (a + b) / 2.0
    best_loss, count = seat_log_loss(make_system(best), priors, periods)
    return SeatFit(best, best_loss, loss(0.0), count)
