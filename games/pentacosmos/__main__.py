"""Command line: `python -m games.pentacosmos replay|moves FILE` (`-` reads stdin); what
it prints and its exit codes: games/engine_common/cli.py."""

from __future__ import annotations

import sys

from games.engine_common import cli

from .errors import PentaCosmosError
from .notation import format_move
from .replay import ReplayResult, replay
from .rules import Position


def _moves(res: ReplayResult) -> list[str]:
    return [format_move(m) for m in Position.from_state(res.state).legal_moves()]


def main(argv: list[str] | None = None) -> int:
    return cli.main(
        argv,
        prog="python -m games.pentacosmos",
        replay=replay,
        moves=_moves,
        record_error=PentaCosmosError,
        details="also print gems, winners",
    )


if __name__ == "__main__":
    sys.exit(main())
