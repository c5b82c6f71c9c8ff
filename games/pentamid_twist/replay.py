"""Replaying a recorded game: every turn validated, the result derived.

A record is a JSON object::

    {"players": 2, "variant": "standard", "moves": ["L@c3 ne+", "L@d4 sw++", ...]}

`players` may be left out and must be 2 when present; `variant` may be left out and
must be "standard": the arrow variations are not supported (docs/rules-pentamid-twist.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError, TwistError
from .notation import parse_move
from .rules import State, apply_move, finished, initial_state, result

ARROW_VARIANTS = ("arrows", "arrows-pips")


@dataclass(frozen=True, slots=True)
class ReplayError:
    ply: int  # 1-based
    move: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """ok: every move is legal. plies: moves applied (all of them when ok). The other
    fields describe the position after the last legal move."""

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    error: ReplayError | None
    state: State = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "plies": self.plies,
            "finished": self.finished,
            "to_move": self.to_move,
            "out": list(self.out),
            "error": None
            if self.error is None
            else {"ply": self.error.ply, "move": self.error.move, "reason": self.error.reason},
        }


def check_record(record: object) -> tuple[State, list[str]]:
    """The initial state and the moves of a record; raises RecordError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with `moves`")
    players = record.get("players", 2)
    if players != 2 or isinstance(players, bool):
        raise RecordError("Pentamid Twist is a game for 2 players: `players` must be 2")
    variant = record.get("variant", "standard")
    if variant in ARROW_VARIANTS:
        raise RecordError(
            "the arrow variations are not supported: the layout of the arrows on the "
            "Martian Coasters is not known"
        )
    if variant != "standard":
        raise RecordError('`variant` must be "standard"')
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("`moves` must be a list of strings")
    return initial_state(), moves


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record; raises RecordError only when the input is not a record; illegal
    moves are reported in the result."""
    state, moves = check_record(record)
    error: ReplayError | None = None
    plies = 0
    for i, text in enumerate(moves):
        try:
            state = apply_move(state, parse_move(text))
        except TwistError as exc:
            error = ReplayError(i + 1, text.strip(), exc.reason)
            break
        plies += 1
    done = finished(state)
    return ReplayResult(
        ok=error is None,
        plies=plies,
        finished=done,
        to_move=None if done else state.to_move,
        out=list(result(state)),
        error=error,
        state=state,
    )
