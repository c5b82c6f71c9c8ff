"""Move notation.

- `17`: phase I, place a token on space 17;
- `17-18`: phase II, move the token on 17 to the free space 18;
- `17-18-25-26`: a string move: the token on 17 pushes the tokens on 18 and 25 along the
  path, each one space forward, the front one into the free space 26;
- `coin:1`, `coin:2`: the coin flip of a turn in the coin-flip variant (one or two moves);
- `pass`: no move is possible.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from games.engine_common.notation import move_text

from .errors import NotationError

_PATH_RE: Final = re.compile(r"[0-9]+(?:-[0-9]+)*")
_COIN_RE: Final = re.compile(r"coin:([0-9]+)", re.IGNORECASE)


class Move(NamedTuple):
    """kind: place, path, coin or pass. path: the spaces (one for a placement)."""

    kind: str
    path: tuple[int, ...] = ()
    coin: int = 0


PASS: Final = Move("pass")


def format_move(move: Move) -> str:
    if move.kind == "pass":
        return "pass"
    if move.kind == "coin":
        return f"coin:{move.coin}"
    return "-".join(str(s) for s in move.path)


def parse_move(text: object) -> Move:
    """Read one move; raises NotationError with a reason."""
    s = move_text(text, NotationError)
    if s.lower() == "pass":
        return PASS
    coin = _COIN_RE.fullmatch(s)
    if coin is not None:
        n = int(coin.group(1))
        if n not in (1, 2):
            raise NotationError("a coin flip gives 1 or 2 moves: `coin:1` or `coin:2`")
        return Move("coin", (), n)
    if _PATH_RE.fullmatch(s) is None:
        raise NotationError(
            f"`{s}` is not a move: write a space (`17`), a path (`17-18-25`), "
            "`coin:1`, `coin:2` or `pass`"
        )
    path = tuple(int(p) for p in s.split("-"))
    return Move("place" if len(path) == 1 else "path", path)
