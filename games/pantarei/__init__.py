"""Pantarei rules engine: setup, notation, state, legal moves, replay of recorded games.

Django-free; see docs/rules-pantarei.md for the rules as implemented.
"""

from __future__ import annotations

from games.rulesets import Ruleset, win_draw_loss

from .errors import IllegalMove, NotationError, PantareiError, RecordError
from .notation import PASS, Move, format_move, parse_move, parse_scale
from .playout import random_record
from .replay import ReplayError, ReplayResult, replay
from .rules import (
    State,
    actions,
    apply_move,
    finished,
    initial_state,
    legal_moves,
    random_setup,
    result,
)

RULESET = Ruleset(
    name="pantarei",
    title="Pantarei",
    table_sizes=(2,),
    target=1,
    replay=replay,  # type: ignore[arg-type]  # frozen fields read-only, Protocol ones plain
    points=win_draw_loss,
    record_keys=("players", "setup", "first", "moves"),
)

__all__ = [
    "PASS",
    "RULESET",
    "IllegalMove",
    "Move",
    "NotationError",
    "PantareiError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "State",
    "actions",
    "apply_move",
    "finished",
    "format_move",
    "initial_state",
    "legal_moves",
    "parse_move",
    "parse_scale",
    "random_record",
    "random_setup",
    "replay",
    "result",
]
