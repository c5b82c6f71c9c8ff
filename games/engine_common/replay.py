"""Replaying a record, the parts every engine does alike: the error of the first illegal
move, the JSON form of a result, and reading the fields of a record."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from .errors import EngineError


@dataclass(frozen=True, slots=True)
class ReplayError:
    ply: int  # 1-based
    move: str
    reason: str

    def message(self) -> str:
        return f"ply {self.ply} `{self.move}`: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "move": self.move, "reason": self.reason}


def _plain(value: Any) -> Any:
    """Lists (of lists) copied as lists, anything else as it is."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class _Final(Protocol):
    @property
    def finished(self) -> bool: ...
    @property
    def to_move(self) -> int | None: ...


class _Outcome(Protocol):
    @property
    def out(self) -> Sequence[int]: ...


class ReplayResultBase:
    """`to_dict` for an engine's replay result (a dataclass with the fields below, and
    `state`).

    The fields named in DETAILS are added to the dict when asked for."""

    __slots__ = ()
    DETAILS: ClassVar[tuple[str, ...]] = ()

    if TYPE_CHECKING:

        @property
        def ok(self) -> bool: ...
        @property
        def plies(self) -> int: ...
        @property
        def finished(self) -> bool: ...
        @property
        def to_move(self) -> int | None: ...
        @property
        def out(self) -> list[int]: ...
        @property
        def error(self) -> ReplayError | None: ...

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ok": self.ok,
            "plies": self.plies,
            "finished": self.finished,
            "to_move": self.to_move,
            "out": list(self.out),
            "error": None if self.error is None else self.error.to_dict(),
        }
        if details:
            for name in self.DETAILS:
                d[name] = _plain(getattr(self, name))
        return d

    @classmethod
    def of_final(
        cls, state: _Final, plies: int, error: ReplayError | None, outcome: _Outcome
    ) -> Self:
        """The result for an engine that replays on a game object: its final `state`
        (finished, to_move), the `plies` applied, and the `outcome` of that state, whose
        `out` and DETAILS fields (same names) are copied as plain lists."""
        make: Callable[..., Self] = cls
        details = {name: _plain(getattr(outcome, name)) for name in cls.DETAILS}
        return make(
            ok=error is None,
            plies=plies,
            finished=state.finished,
            to_move=state.to_move,
            out=list(outcome.out),
            error=error,
            state=state,
            **details,
        )


def first_error(
    moves: Iterable[str], apply: Callable[[str], object], error: type[EngineError]
) -> ReplayError | None:
    """Applies the moves in turn; the first that raises `error` is reported (1-based ply,
    the move as written without surrounding blanks) and ends the replay."""
    for i, text in enumerate(moves):
        try:
            apply(text)
        except error as exc:
            return ReplayError(i + 1, text.strip(), exc.reason)
    return None


class _Position(Protocol):
    @property
    def to_move(self) -> int: ...


S = TypeVar("S", bound=_Position)
G = TypeVar("G")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class StateReplayResult(ReplayResultBase, Generic[S]):
    """The result of replaying a game whose positions are immutable states: ok, every
    move is legal; plies, moves applied (all of them when ok). The other fields describe
    the position after the last legal move."""

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    error: ReplayError | None
    state: S = field(repr=False, compare=False)

    @classmethod
    def play(
        cls,
        state: S,
        moves: Sequence[str],
        parse_move: Callable[[str], M],
        apply_move: Callable[[S, M], S],
        error: type[EngineError],
        finished: Callable[[S], bool],
        result: Callable[[S], Sequence[int]],
    ) -> Self:
        """Replays `moves` from `state`, each read by `parse_move` and played by
        `apply_move`; a move that raises `error` ends the replay and is reported."""
        current = state

        def apply(text: str) -> None:
            nonlocal current
            current = apply_move(current, parse_move(text))

        failed = first_error(moves, apply, error)
        plies = len(moves) if failed is None else failed.ply - 1
        done = finished(current)
        return cls(
            ok=failed is None,
            plies=plies,
            finished=done,
            to_move=None if done else current.to_move,
            out=list(result(current)),
            error=failed,
            state=current,
        )


class RecordReader:
    """The fields of a record (a JSON object), each checked as it is read: a wrong one
    raises `error(reason)`, so the first wrong field read is the one reported."""

    __slots__ = ("error", "fields")

    def __init__(
        self,
        record: object,
        error: Callable[[str], Exception],
        shape: str = "a record is a JSON object with `players`, `variant` and `moves`",
        *,
        dict_only: bool = False,
    ) -> None:
        """`shape` is the reason given when the record is not a mapping at all (with
        `dict_only`, not a dict)."""
        if not isinstance(record, dict if dict_only else Mapping):
            raise error(shape)
        self.fields: Mapping[str, Any] = record
        self.error = error

    def whole_number(self, key: str, reason: str, default: int | None = None) -> int:
        value = self.fields.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(reason)
        return value

    def string(self, key: str, reason: str, default: str = "standard") -> str:
        value = self.fields.get(key, default)
        if not isinstance(value, str):
            raise self.error(reason)
        return value

    def players(self, most: int) -> int:
        """`players`, required: a whole number (the engine checks the range)."""
        return self.whole_number("players", f"`players` must be a whole number from 2 to {most}")

    def variant(self) -> str:
        return self.string("variant", "`variant` must be a string")

    def two_players(self, game: str) -> None:
        """`players` may be left out and must be 2 when present."""
        players = self.fields.get("players", 2)
        if players != 2 or isinstance(players, bool):
            raise self.error(f"{game} is a game for 2 players: `players` must be 2")

    def moves(self) -> list[str]:
        moves = self.fields.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise self.error("`moves` must be a list of strings")
        return moves


def started(
    start: Callable[[], G], illegal: type[EngineError], error: Callable[[str], Exception]
) -> G:
    """`start()`, with an `illegal` setup reported as `error` (the record is wrong, not a
    move)."""
    try:
        return start()
    except illegal as exc:
        raise error(exc.reason) from None
