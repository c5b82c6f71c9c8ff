"""PentaCosmos rules engine (John D. Barnhart): surround gem spaces on a board of
pentagons. Django-free; the board is data (board.json, our reconstruction, see
cairo.py); docs/rules-pentacosmos.md has the rules as implemented."""

from __future__ import annotations

from games.rulesets import Ruleset

from .board import BOARD, GEMS, SPACES, TOTAL_POINTS, WIN_POINTS, Board, Gem
from .errors import IllegalMove, NotationError, PentaCosmosError
from .notation import PASS, Move, format_move, parse_move
from .replay import RecordError, ReplayError, ReplayResult, replay
from .result import Result, gem_points, result
from .rules import Position, State, apply_move, initial_state, legal_moves

RULESET = Ruleset(
    name="pentacosmos",
    title="PentaCosmos",
    table_sizes=(2, 3, 4),
    target=TOTAL_POINTS,
    replay=replay,
    points=gem_points,
    record_keys=("players", "variant", "tokens", "moves"),
)

__all__ = [
    "BOARD",
    "GEMS",
    "PASS",
    "RULESET",
    "SPACES",
    "TOTAL_POINTS",
    "WIN_POINTS",
    "Board",
    "Position",
    "Gem",
    "IllegalMove",
    "Move",
    "NotationError",
    "PentaCosmosError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "Result",
    "State",
    "apply_move",
    "format_move",
    "gem_points",
    "initial_state",
    "legal_moves",
    "parse_move",
    "replay",
    "result",
]
