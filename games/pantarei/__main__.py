"""Command line: `python -m games.pantarei replay|moves FILE` (`-` reads stdin); what
it prints and its exit codes: games/engine_common/cli.py."""

from __future__ import annotations

import sys

from games.engine_common import cli

from .errors import PantareiError
from .notation import format_move
from .replay import ReplayResult, replay
from .rules import legal_moves


def _moves(res: ReplayResult) -> list[str]:
    return [format_move(m) for m in legal_moves(res.state)]


def main(argv: list[str] | None = None) -> int:
    return cli.main(
        argv,
        prog="python -m games.pantarei",
        replay=replay,
        moves=_moves,
        record_error=PantareiError,
    )


if __name__ == "__main__":
    sys.exit(main())
