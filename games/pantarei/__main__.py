"""Command line: `python -m games.pantarei replay|moves FILE` (`-` reads stdin).

replay: prints {"ok", "plies", "finished", "to_move", "out", "error"}; exit 0 when the
record is legal, 1 when it is not, 2 when the input is not a record.
moves: prints {"to_move", "moves"} after the record (exit 1 if the record is illegal).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import PantareiError
from .notation import format_move
from .replay import replay
from .rules import legal_moves


def _read(path: str) -> Any:
    if path == "-":
        return json.loads(sys.stdin.read())
    with open(path, encoding="utf-8") as fh:
        return json.loads(fh.read())


def _print(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.pantarei")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("replay", help="validate a record and print its result").add_argument("file")
    sub.add_parser("moves", help="list the legal moves after a record").add_argument("file")
    args = parser.parse_args(argv)
    try:
        data = _read(args.file)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        _print(
            {"ok": False, "error": {"ply": None, "move": None, "reason": f"not a record: {exc}"}}
        )
        return 2
    try:
        res = replay(data)
    except PantareiError as exc:
        _print({"ok": False, "error": {"ply": None, "move": None, "reason": exc.reason}})
        return 2
    if args.command == "replay":
        _print(res.to_dict())
        return 0 if res.ok else 1
    if not res.ok:
        _print(res.to_dict())
        return 1
    _print({"to_move": res.to_move, "moves": [format_move(m) for m in legal_moves(res.state)]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
