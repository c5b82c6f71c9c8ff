"""Pent-Up rules engine (Néstor Romeral Andrés): pentomino tiles stacked on an unbounded
grid. Django-free; see docs/rules-pent-up.md for the rules as implemented."""

from __future__ import annotations

from games.rulesets import Ruleset, win_draw_loss

from .errors import IllegalMove, NotationError, PentUpError
from .notation import Move, format_move, parse_move
from .replay import RecordError, ReplayError, ReplayResult, replay
from .result import Result, result
from .rules import Game, State, Tile, apply_move, initial_state, legal_moves

RULESET = Ruleset(
    name="pent_up",
    title="Pent-Up",
    table_sizes=(2, 3, 4),
    # A seat's tiles on any one level. `out` itself is a key with two digits per level
    # (result.py) and can exceed this; only the order of the keys matters for points.
    target=12,
    replay=replay,
    points=win_draw_loss,
)

__all__ = [
    "RULESET",
    "Game",
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
