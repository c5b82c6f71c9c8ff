"""The result of a position: gem points per seat, the winners, tournament points.

Tournament points (`gem_points`): a seat's gem points minus the table's average, plus
115 (half of the 230 points on the board) so nobody goes below zero. A table of n hands
out 115 n points whatever happens, so it is zero-sum around its mean like the dropped
score (docs/rules-pentacosmos.md, docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import GEMS, TOTAL_POINTS
from .rules import Position, State


@dataclass(frozen=True, slots=True)
class Result:
    """out: gem points per seat (with teams the team's points for both members).
    gems: per seat the names of the gems it captured. winners: 1-based seats with the
    most points once the game is finished."""

    finished: bool
    out: tuple[int, ...]
    gems: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]


def result(state: State) -> Result:
    out = tuple(Position.from_state(state).points())
    gems = tuple(
        tuple(g.name for g, s in zip(GEMS, state.gems, strict=True) if s == seat)
        for seat in range(1, state.players + 1)
    )
    winners: tuple[int, ...] = ()
    if state.finished:
        best = max(out)
        winners = tuple(s + 1 for s, n in enumerate(out) if n == best)
    return Result(state.finished, out, gems, winners)


def gem_points(out: Sequence[int]) -> list[float]:
    """Zero-sum tournament points from gem points (see the module docstring)."""
    mean = sum(out) / len(out)
    return [TOTAL_POINTS / 2 + n - mean for n in out]
