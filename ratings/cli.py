"""``python -m ratings rate FILE|-``: rate a JSON document (see document.py) and print,
as one JSON list, every known player's state after each period (one list item per input
period, players sorted by name). Skipped games and periods are reported on stderr.

Exit status: 0 on success (even with skipped games), 2 for an unreadable or malformed
document or bad arguments.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .document import MalformedDocument, parse_document
from .replay import iter_replay

EXIT_MALFORMED = 2


def _read(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def rate(path: str, out: TextIO) -> int:
    try:
        request = parse_document(_read(path))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, MalformedDocument) as error:
        print(f"ratings: malformed input: {error}", file=sys.stderr)
        return EXIT_MALFORMED
    system = request.system
    out.write("[")
    for number, rated in enumerate(iter_replay(system, request.priors, request.periods)):
        states = {
            player: system.state_to_json(rated.states[player]) for player in sorted(rated.states)
        }
        out.write(
            ("\n" if number == 0 else ",\n") + json.dumps(states, sort_keys=True, allow_nan=False)
        )
    out.write("\n]\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ratings", description="Rate Pentagame games.")
    commands = parser.add_subparsers(dest="command", required=True)
    rate_parser = commands.add_parser("rate", help="rate the periods of a JSON document")
    rate_parser.add_argument("file", help="the JSON document, or - for standard input")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s", stream=sys.stderr)
    return rate(args.file, sys.stdout)
