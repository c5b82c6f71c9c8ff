"""Command line: `python -m games.pent_up replay|moves FILE` (`-` reads stdin); what
it prints and its exit codes: games/engine_common/cli.py."""

from __future__ import annotations

import sys

from games.engine_common import cli

from .errors import PentUpError
from .notation import format_move
from .replay import ReplayResult, replay
from .rules import Position


def _moves(res: ReplayResult) -> list[str]:
    return [format_move(m) for m in Position.from_state(res.state).legal_moves()]


def main(argv: list[str] | None = None) -> int:
    return cli.main(
        argv,
        prog="python -m games.pent_up",
        replay=replay,
        moves=_moves,
        record_error=PentUpError,
        details="also print levels, winners",
    )


if __name__ == "__main__":
    sys.exit(main())
