"""Command line: `python -m games.pentamid_twist replay|moves FILE` (`-` reads stdin); what
it prints and its exit codes: games/engine_common/cli.py."""

from __future__ import annotations

import sys

from games.engine_common import cli

from .errors import TwistError
from .notation import format_move
from .replay import ReplayResult, replay
from .rules import legal_moves


def _moves(res: ReplayResult) -> list[str]:
    return [format_move(m) for m in legal_moves(res.state)]


def main(argv: list[str] | None = None) -> int:
    return cli.main(
        argv,
        prog="python -m games.pentamid_twist",
        replay=replay,
        moves=_moves,
        record_error=TwistError,
    )


if __name__ == "__main__":
    sys.exit(main())
