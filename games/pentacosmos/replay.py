"""Replaying a recorded game: every move validated, the result derived."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine_common.replay import RecordReader, ReplayResultBase, first_error, started
from games.engine_common.replay import ReplayError as ReplayError

from .errors import IllegalMove, PentaCosmosError
from .notation import parse_move
from .result import result
from .rules import Position, State


class RecordError(PentaCosmosError):
    """The input is not a game record at all (wrong shape, unknown variant)."""


@dataclass(slots=True)
class ReplayResult(ReplayResultBase):
    """ok: every move is legal. plies: moves applied (all of them when ok). The other
    fields describe the position after the last legal move; out is the per-seat key of
    gem points per seat (with teams the team's points)."""

    DETAILS = ("gems", "winners")

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    gems: list[list[str]]
    winners: list[int]
    error: ReplayError | None
    state: State = field(repr=False, compare=False)


def check_record(record: object) -> tuple[int, str, int, list[str]]:
    """players, variant, tokens, moves of a record; raises RecordError."""
    reader = RecordReader(record, RecordError)
    players = reader.players(4)
    tokens = reader.whole_number(
        "tokens", "`tokens` must be a whole number (30, or 25 with 4 players)", 30
    )
    return players, reader.variant(), tokens, reader.moves()


def start_game(players: int, variant: str, tokens: int) -> Position:
    return started(lambda: Position.start(players, variant, tokens), IllegalMove, RecordError)


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay {"players": n, "variant": "standard", "tokens": 30, "moves": [...]};
    raises RecordError only when the input is not a record; illegal moves are reported."""
    players, variant, tokens, moves = check_record(record)
    game = start_game(players, variant, tokens)
    error = first_error(moves, lambda text: game.apply(parse_move(text)), PentaCosmosError)
    state = game.state()
    return ReplayResult.of_final(state, game.ply, error, result(state))
