"""Pent-Up rules engine (Néstor Romeral Andrés): pentomino tiles stacked on an unbounded
grid. Django-free; see docs/rules-pent-up.md for the rules as implemented."""

from __future__ import annotations

from games.rulesets import Ruleset, dense_ranks, win_draw_loss

from .errors import IllegalMove, NotationError, PentUpError
from .notation import Move, format_move, parse_move
from .replay import RecordError, ReplayError, ReplayResult, replay
from .result import Result, result
from .rules import Position, State, Tile, apply_move, initial_state, legal_moves

RULESET = Ruleset(
    name="pent_up",
    title="Pent-Up",
    table_sizes=(2, 3, 4),
    # `out` is a key with two digits per level (result.py); only its order matters for
    # points, so the score sheet keeps each seat's place (0 = last, 3 = first of four).
    target=3,
    replay=replay,
    points=win_draw_loss,
    sheet=dense_ranks,
)

__all__ = [
    "RULESET",
    "Position",
    "IllegalMove",
    "Move",
    "NotationError",
    "PentUpError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "Result",
    "State",
    "Tile",
    "apply_move",
    "format_move",
    "initial_state",
    "legal_moves",
    "parse_move",
    "replay",
    "result",
]
