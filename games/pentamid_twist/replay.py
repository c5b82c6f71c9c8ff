"""Replaying a recorded game: every turn validated, the result derived.

A record is a JSON object::

    {"players": 2, "variant": "standard", "moves": ["L@c3 ne+", "L@d4 sw++", ...]}

`players` may be left out and must be 2 when present; `variant` may be left out and
must be "standard": the arrow variations are not supported (docs/rules-pentamid-twist.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine_common.replay import RecordReader, StateReplayResult
from games.engine_common.replay import ReplayError as ReplayError

from .errors import RecordError, TwistError
from .notation import parse_move
from .rules import State, apply_move, finished, initial_state, result

ARROW_VARIANTS = ("arrows", "arrows-pips")


class ReplayResult(StateReplayResult[State]):
    """A replayed Pentamid Twist record; the fields are those of StateReplayResult."""

    __slots__ = ()


def check_record(record: object) -> tuple[State, list[str]]:
    """The initial state and the moves of a record; raises RecordError."""
    reader = RecordReader(record, RecordError, "a record is a JSON object with `moves`")
    reader.two_players("Pentamid Twist")
    variant = reader.fields.get("variant", "standard")
    if variant in ARROW_VARIANTS:
        raise RecordError(
            "the arrow variations are not supported: the layout of the arrows on the "
            "Martian Coasters is not known"
        )
    if variant != "standard":
        raise RecordError('`variant` must be "standard"')
    moves = reader.moves()
    return initial_state(), moves


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record; raises RecordError only when the input is not a record; illegal
    moves are reported in the result."""
    state, moves = check_record(record)
    return ReplayResult.play(state, moves, parse_move, apply_move, TwistError, finished, result)
