"""The command line every engine offers: `python -m games.<name> replay|moves FILE`
(`-` reads stdin).

replay: prints the result's `to_dict()` ({"ok", "plies", "finished", "to_move", "out",
"error"}, with `--details` where the engine has some); exit 0 when the record is legal,
1 when it is not, 2 when the input is not a record.
moves: prints {"to_move", "moves"} after the record (exit 1 if the record is illegal).
An engine may add commands of its own that turn the input into something to print.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .errors import EngineError


class Replayed(Protocol):
    @property
    def ok(self) -> bool: ...
    @property
    def to_move(self) -> int | None: ...
    def to_dict(self, details: bool = ...) -> dict[str, Any]: ...


R = TypeVar("R", bound=Replayed)
# name -> (help, what to print for the input); the engine's errors exit with 2.
Commands = Mapping[str, tuple[str, Callable[[Any], object]]]


def read(path: str) -> Any:
    """The JSON in the file at `path`, or on stdin for `-`."""
    if path == "-":
        return json.loads(sys.stdin.read())
    with open(path, encoding="utf-8") as fh:
        return json.loads(fh.read())


def emit(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def not_a_record(reason: str) -> dict[str, Any]:
    return {"ok": False, "error": {"ply": None, "move": None, "reason": reason}}


def main(
    argv: Sequence[str] | None,
    *,
    prog: str,
    replay: Callable[[Any], R],
    moves: Callable[[R], list[str]],
    record_error: type[EngineError],
    details: str | None = None,
    commands: Commands | None = None,
) -> int:
    """Runs the command line. `replay` reads a record and raises `record_error` when the
    input is not one; `moves` lists the legal moves (as text) after a legal record;
    `details` is the help of a `--details` flag of replay (None: no flag)."""
    parser = argparse.ArgumentParser(prog=prog)
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="validate a record and print its result")
    p_replay.add_argument("file")
    if details is not None:
        p_replay.add_argument("--details", action="store_true", help=details)
    sub.add_parser("moves", help="list the legal moves after a record").add_argument("file")
    extra = dict(commands or {})
    for name, (help_text, _) in extra.items():
        sub.add_parser(name, help=help_text).add_argument("file")
    args = parser.parse_args(argv)
    try:
        data = read(args.file)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        emit(not_a_record(f"not a record: {exc}"))
        return 2
    try:
        if args.command in extra:
            emit(extra[args.command][1](data))
            return 0
        res = replay(data)
    except record_error as exc:
        emit(not_a_record(exc.reason))
        return 2
    if args.command == "replay":
        emit(res.to_dict(details=getattr(args, "details", False)))
        return 0 if res.ok else 1
    if not res.ok:
        emit(res.to_dict(details=False))
        return 1
    emit({"to_move": res.to_move, "moves": moves(res)})
    return 0
