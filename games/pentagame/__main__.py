"""Command line: `python -m games.pentagame replay|moves|import FILE` (`-` reads stdin).

replay and moves as for every engine (games/engine_common/cli.py); import converts an
online-client event list to a record.
"""

from __future__ import annotations

import sys
from typing import Any

from games.engine_common import cli

from .errors import PentagameError
from .importer import import_events
from .movegen import legal_moves
from .notation import format_move
from .replay import ReplayResult, replay


def _moves(res: ReplayResult) -> list[str]:
    return [format_move(m) for m in legal_moves(res.state)]


def _import(data: Any) -> dict[str, Any]:
    imported = import_events(data)
    return {**imported.record, "pending": imported.pending, "winners": imported.winners}


def main(argv: list[str] | None = None) -> int:
    return cli.main(
        argv,
        prog="python -m games.pentagame",
        replay=replay,
        moves=_moves,
        record_error=PentagameError,
        details="also print out_colours and winners",
        commands={"import": ("convert an online-client event list", _import)},
    )


if __name__ == "__main__":
    sys.exit(main())
