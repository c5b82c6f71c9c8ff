"""Replaying a recorded game: every move validated, the result derived."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove, PentaCosmosError
from .notation import parse_move
from .result import result
from .rules import Game, State


class RecordError(PentaCosmosError):
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
    gem points per seat (with teams the team's points)."""

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    gems: list[list[str]]
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
            d["gems"] = [list(g) for g in self.gems]
            d["winners"] = list(self.winners)
        return d


def check_record(record: object) -> tuple[int, str, int, list[str]]:
    """players, variant, tokens, moves of a record; raises RecordError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with `players`, `variant` and `moves`")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("`players` must be a whole number from 2 to 4")
    tokens = record.get("tokens", 30)
    if not isinstance(tokens, int) or isinstance(tokens, bool):
        raise RecordError("`tokens` must be a whole number (30, or 25 with 4 players)")
    variant = record.get("variant", "standard")
    if not isinstance(variant, str):
        raise RecordError("`variant` must be a string")
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("`moves` must be a list of strings")
    return players, variant, tokens, moves


def start_game(players: int, variant: str, tokens: int) -> Game:
    try:
        return Game.start(players, variant, tokens)
    except IllegalMove as exc:
        raise RecordError(exc.reason) from None


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay {"players": n, "variant": "standard", "tokens": 30, "moves": [...]};
    raises RecordError only when the input is not a record; illegal moves are reported."""
    players, variant, tokens, moves = check_record(record)
    game = start_game(players, variant, tokens)
    error: ReplayError | None = None
    for i, text in enumerate(moves):
        try:
            game.apply(parse_move(text))
        except PentaCosmosError as exc:
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
        gems=[list(g) for g in res.gems],
        winners=list(res.winners),
        error=error,
        state=state,
    )
