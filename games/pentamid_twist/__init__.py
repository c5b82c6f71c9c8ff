"""Pentamid Twist rules engine: board, notation, state, legal turns, replay of records.

Django-free; see docs/rules-pentamid-twist.md for the rules as implemented.
"""

from __future__ import annotations

from games.rulesets import Ruleset, win_draw_loss

from .errors import IllegalMove, NotationError, RecordError, TwistError
from .notation import Move, format_move, parse_move
from .playout import random_record
from .replay import ReplayError, ReplayResult, replay
from .rules import State, apply_move, finished, initial_state, legal_moves, result

RULESET = Ruleset(
    name="pentamid_twist",
    title="Pentamid Twist",
    table_sizes=(2,),
    target=1,
    replay=replay,  # type: ignore[arg-type]  # frozen fields read-only, Protocol ones plain
    points=win_draw_loss,
    record_keys=("players", "variant", "moves"),
)

__all__ = [
    "RULESET",
    "IllegalMove",
    "Move",
    "NotationError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "State",
    "TwistError",
    "apply_move",
    "finished",
    "format_move",
    "initial_state",
    "legal_moves",
    "parse_move",
    "random_record",
    "replay",
    "result",
]
