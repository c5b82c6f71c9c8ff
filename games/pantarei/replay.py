"""Replaying a recorded game: every move validated, the result derived.

A record is a JSON object::

    {"players": 2, "setup": ["W2", "B1", ..., "N"], "first": "white", "moves": ["3-4", ...]}

`setup` lists the 19 scales from the head of the snake to its tail as they were turned
over; `first` is the colour of the player who moves first (seat 0), "white" when
missing; `players` may be left out and must be 2 when present.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import PantareiError, RecordError
from .notation import parse_move
from .rules import State, apply_move, finished, initial_state, result

FIRST = {"white": "W", "black": "B", "w": "W", "b": "B"}


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
        raise RecordError("a record is a JSON object with `setup` and `moves`")
    players = record.get("players", 2)
    if players != 2 or isinstance(players, bool):
        raise RecordError("Pantarei is a game for 2 players: `players` must be 2")
    first = record.get("first", "white")
    if not isinstance(first, str) or first.lower() not in FIRST:
        raise RecordError('`first` must be "white" or "black"')
    if "setup" not in record:
        raise RecordError("`setup` is missing: the 19 scales from head to tail")
    state = initial_state(record["setup"], FIRST[first.lower()])
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("`moves` must be a list of strings")
    return state, moves


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record; raises RecordError only when the input is not a record; illegal
    moves are reported in the result."""
    state, moves = check_record(record)
    error: ReplayError | None = None
    plies = 0
    for i, text in enumerate(moves):
        try:
            state = apply_move(state, parse_move(text))
        except PantareiError as exc:
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
