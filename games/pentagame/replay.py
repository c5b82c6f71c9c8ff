"""Replaying a recorded game: every move validated, the result derived."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine_common.replay import RecordReader, ReplayResultBase, started
from games.engine_common.replay import ReplayError as ReplayError

from .errors import IllegalMove, PentagameError
from .result import result
from .rules import Position, State


class RecordError(PentagameError):
    """The input is not a game record at all (wrong shape, unknown variant)."""


@dataclass(frozen=True, slots=True)
class ReplayResult(ReplayResultBase):
    """ok: every move is legal. plies: moves applied (all of them when ok). The other
    fields describe the position after the last legal move."""

    DETAILS = ("out_colours", "winners")

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    out_colours: list[list[str]]
    winners: list[int]
    error: ReplayError | None
    state: State = field(repr=False, compare=False)

    def to_dict(self, details: bool = True) -> dict[str, Any]:
        return ReplayResultBase.to_dict(self, details)


def check_record(record: object) -> tuple[int, str, list[str]]:
    """players, variant, moves of a record; raises RecordError."""
    reader = RecordReader(record, RecordError, dict_only=True)
    return reader.players(5), reader.variant(), reader.moves()


def start_game(players: int, variant: str) -> Position:
    return started(lambda: Position.start(players, variant), IllegalMove, RecordError)


def replay(record: dict[str, Any]) -> ReplayResult:
    """Replay {"players": n, "variant": "...", "moves": [...]}; raises RecordError only
    when the input is not a record; illegal moves are reported in the result."""
    players, variant, moves = check_record(record)
    game = start_game(players, variant)
    error: ReplayError | None = None
    failed = game.play(moves)
    if failed is not None:
        i, reason = failed
        error = ReplayError(i + 1, moves[i].strip(), reason)
    state = game.state()
    return ReplayResult.of_final(state, game.ply, error, result(state))
