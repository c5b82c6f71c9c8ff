"""Pentagame rules engine: notation, state, legal moves, replay of recorded games.

Django-free; see docs/rules.md for the rules as implemented.
"""

from __future__ import annotations

from . import compiled

# The Cython builds of movegen.py and playloop.py, when those of today's sources are there
# (compiled.py): they are found before the .py files because their directory comes first
# on the package's path.
if compiled.wanted() and compiled.current():
    __path__.insert(0, str(compiled.BUILD_DIR))

from .errors import IllegalMove, NotationError, PentagameError
from .importer import import_events
from .movegen import legal_moves
from .notation import Move, format_move, format_stop, parse_move, parse_stop
from .replay import RecordError, ReplayError, ReplayResult, extend, position_of, replay
from .result import Result, result
from .rules import Position, State, apply_move, initial_state

__all__ = [
    "Position",
    "IllegalMove",
    "Move",
    "NotationError",
    "PentagameError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "Result",
    "State",
    "apply_move",
    "extend",
    "format_move",
    "format_stop",
    "import_events",
    "initial_state",
    "legal_moves",
    "parse_move",
    "parse_stop",
    "position_of",
    "replay",
    "result",
]
