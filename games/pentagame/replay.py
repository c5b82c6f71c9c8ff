"""Replaying a recorded game: every move validated, the result derived."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine_common.replay import RecordReader, ReplayResultBase, started
from games.engine_common.replay import ReplayError as ReplayError

from .errors import IllegalMove, PentagameError
from .result import result
from .rules import Position, State

# The stored position's shape (`position_of`, `extend`): a new shape gets a new number,
# and a position of another shape is never read (the record is replayed instead).
POSITION_SHAPE = 1


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


def position_of(state: State) -> dict[str, Any]:
    """A state as plain JSON, to be stored beside its record (`extend` reads it back)."""
    return {
        "shape": POSITION_SHAPE,
        "players": state.players,
        "variant": state.variant,
        "pieces": list(state.pieces),
        "black": list(state.black),
        "grey": list(state.grey),
        "to_move": state.to_move,
        "ply": state.ply,
        "last": [None if k is None else list(k) for k in state.last],
        "out": [list(o) for o in state.out],
        "finished": state.finished,
    }


def state_at(position: Any, players: int, variant: str, plies: int) -> State | None:
    """The state a stored position holds, when it is the position after ``plies`` plies
    of a ``players``/``variant`` record; None for anything else (another shape, another
    game, a position stored before a later change to the record, not a position at
    all): the caller replays the record then."""
    if not isinstance(position, dict) or position.get("shape") != POSITION_SHAPE:
        return None
    try:
        state = State(
            players=position["players"],
            variant=position["variant"],
            pieces=tuple(int(s) for s in position["pieces"]),
            black=tuple(int(s) for s in position["black"]),
            grey=tuple(int(s) for s in position["grey"]),
            to_move=position["to_move"],
            ply=int(position["ply"]),
            last=tuple(
                None if k is None else (int(k[0]), int(k[1]), int(k[2])) for k in position["last"]
            ),
            out=tuple(tuple(int(c) for c in o) for o in position["out"]),
            finished=bool(position["finished"]),
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if (state.players, state.variant, state.ply) != (players, variant, plies):
        return None
    return state


def extend(record: dict[str, Any], position: Any, move: str) -> tuple[ReplayResult, dict[str, Any]]:
    """The record with one more ply, ``move``, checked against ``position`` (the stored
    position after the record, `position_of`) rather than by replaying the record: a
    ply recorded live costs the same at ply 10 and ply 500. Without a usable position
    the record is replayed once. Returns the result (as `replay` gives it) and the
    position to store with the longer record."""
    players, variant, moves = check_record(record)
    state = state_at(position, players, variant, len(moves))
    if state is None:
        replayed = replay({**record, "moves": [*moves, move]})
        return replayed, position_of(replayed.state)
    game = Position(state)
    failed = game.play([move])
    error = None
    if failed is not None:
        error = ReplayError(len(moves) + 1, move.strip(), failed[1])
    after = game.state()
    return ReplayResult.of_final(after, game.ply, error, result(after)), position_of(after)
