"""Move notation: `<piece>[']<turns>@<x>,<y>[^<level>]`.

`piece` is the pentomino's letter (F I L N P T U V W X Y Z); `'` means the tile is
turned over (mirrored east-west) before it is turned `turns` quarter turns clockwise
(0-3, `0` may be left out); `x,y` is the grid square of the south-west corner of the
tile's bounding box (x east, y north); `^level` (1 = the table) is optional when
reading and always written. Examples: `I@0,0^1`, `P'3@2,-1^2`.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from games.engine_common.notation import move_text

from .errors import NotationError
from .pieces import PIECES

_MOVE_RE: Final = re.compile(r"([A-Za-z])('?)([0-9]?)@([+-]?[0-9]+),([+-]?[0-9]+)(?:\^([0-9]+))?")


class Move(NamedTuple):
    """One placement. level is None when the text did not state it."""

    piece: str
    flip: bool
    turns: int
    x: int
    y: int
    level: int | None = None


def format_move(move: Move) -> str:
    flip = "'" if move.flip else ""
    turns = str(move.turns) if move.turns else ""
    level = "" if move.level is None else f"^{move.level}"
    return f"{move.piece}{flip}{turns}@{move.x},{move.y}{level}"


def parse_move(text: object) -> Move:
    """Read one move; raises NotationError with a reason."""
    s = move_text(text, NotationError)
    m = _MOVE_RE.fullmatch(s)
    if m is None:
        raise NotationError(
            f"`{s}` is not a placement like `P'3@2,-1^2` (piece, optional ' for the "
            "reverse side, quarter turns 0-3, @x,y, optional ^level)"
        )
    letter, flip, turns, x, y, level = m.groups()
    piece = letter.upper()
    if piece not in PIECES:
        raise NotationError(f"`{letter}` is not a pentomino (F I L N P T U V W X Y Z)")
    if turns and int(turns) > 3:
        raise NotationError(f"{turns} quarter turns: write 0 to 3")
    if level is not None and int(level) < 1:
        raise NotationError("levels count from 1 (the table)")
    return Move(
        piece,
        flip == "'",
        int(turns or 0),
        int(x),
        int(y),
        None if level is None else int(level),
    )
