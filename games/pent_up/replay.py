"""Replaying a recorded game: every move validated, the result derived."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove, PentUpError
from .notation import parse_move
from .result import result
from .rules import Game, State


class RecordError(PentUpError):
    """The input is not a game record at all (wrong shape, unknown variant)."""


@dataclass(frozen=True, slots=True)
class ReplayError:
    ply: int  # 1-based
    move: str
    reason: str

    def message(self) -> str:
        return f"ply {self.ply} `{self.move}`: {self.reason}"


@dataclass(slots=True)
class ReplayResult:
    """ok: every move is legal. plies: moves applied (all of them when ok). The other
    fields describe the position after the last legal move; out is the per-seat key of
    `result.py` (tiles per level, deciding level first)."""

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    levels: list[list[int]]
    winners: list[int]
    error: ReplayError | None
    state: State = field(repr=False, compare=False)

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ok": self.ok,
            "plies": self.plies,
            "finished": self.finished,
            "to_move": self.to_move,
            "out": list(self.out),
            "error": None
            if self.error is None
            else {"ply": self.error.ply, "move": self.error.move, "reason": self.error.reason},
        }
        if details:
            d["levels"] = [list(c) for c in self.levels]
            d["winners"] = list(self.winners)
        return d


def check_record(record: object) -> tuple[int, str, list[str]]:
    """players, variant, moves of a record; raises RecordError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with `players`, `variant` and `moves`")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("`players` must be a whole number from 2 to 4")
    variant = record.get("variant", "standard")
    if not isinstance(variant, str):
        raise RecordError("`variant` must be a string")
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("`moves` must be a list of strings")
    return players, variant, moves


def start_game(players: int, variant: str) -> Game:
    try:
        return Game.start(players, variant)
    except IllegalMove as exc:
        raise RecordError(exc.reason) from None


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay {"players": n, "variant": "standard"|"misere", "moves": [...]}; raises
    RecordError only when the input is not a record; illegal moves are reported."""
    players, variant, moves = check_record(record)
    game = start_game(players, variant)
    error: ReplayError | None = None
    for i, text in enumerate(moves):
        try:
            game.apply(parse_move(text))
        except PentUpError as exc:
            error = ReplayError(i + 1, text.strip(), exc.reason)
            break
    state = game.state()
    res = result(state)
    return ReplayResult(
        ok=error is None,
        plies=game.ply,
        finished=state.finished,
        to_move=state.to_move,
        out=list(res.out),
        levels=[list(c) for c in res.levels],
        winners=list(res.winners),
        error=error,
        state=state,
    )
