"""Replaying a recorded game: every move validated, the result derived.

A record is a JSON object::

    {"players": 2, "setup": ["W2", "B1", ..., "N"], "first": "white", "moves": ["3-4", ...]}

`setup` lists the 19 scales from the head of the snake to its tail as they were turned
over; `first` is the colour of the player who moves first (seat 0), "white" when
missing; `players` may be left out and must be 2 when present.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine_common.replay import RecordReader, StateReplayResult
from games.engine_common.replay import ReplayError as ReplayError

from .errors import PantareiError, RecordError
from .notation import parse_move
from .rules import State, apply_move, finished, initial_state, result

FIRST = {"white": "W", "black": "B", "w": "W", "b": "B"}


class ReplayResult(StateReplayResult[State]):
    """A replayed Pantarei record; the fields are those of StateReplayResult."""

    __slots__ = ()


def check_record(record: object) -> tuple[State, list[str]]:
    """The initial state and the moves of a record; raises RecordError."""
    reader = RecordReader(record, RecordError, "a record is a JSON object with `setup` and `moves`")
    reader.two_players("Pantarei")
    fields = reader.fields
    first = fields.get("first", "white")
    if not isinstance(first, str) or first.lower() not in FIRST:
        raise RecordError('`first` must be "white" or "black"')
    setup = fields.get("setup")
    if not isinstance(setup, list) or not all(isinstance(scale, str) for scale in setup):
        raise RecordError('`setup` must list the 19 scales from head to tail, e.g. "W2"')
    state = initial_state(setup, FIRST[first.lower()])
    moves = reader.moves()
    return state, moves


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record; raises RecordError only when the input is not a record; illegal
    moves are reported in the result."""
    state, moves = check_record(record)
    return ReplayResult.play(state, moves, parse_move, apply_move, PantareiError, finished, result)
