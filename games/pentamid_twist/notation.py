"""Turn notation (docs/rules-pentamid-twist.md).

A turn is its piece action, a space, then its board action:

- `L@c3 ne+`   drop a large piece (`S`, `M` or `L`) from the reserve on c3, then turn
  the north-east coaster a quarter turn clockwise;
- `c3-c4 sw-`  step the piece on c3 to c4, then turn the south-west coaster a quarter
  turn anticlockwise;
- `e5-d5 nw++` ... then a half turn (`--` is read as `++`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .board import parse_square, square_name
from .errors import NotationError

Kind = Literal["drop", "step"]
SIZES = "SML"  # size 1, 2, 3 (pips)
TURN_TEXT = {1: "+", -1: "-", 2: "++"}
_TURN = {"+": 1, "-": -1, "++": 2, "--": 2}


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """kind: drop or step. size: 1 small, 2 medium, 3 large for a drop (0 for a step).
    frm: the square a step leaves (-1 for a drop). to: the square the piece ends on.
    coaster: nw, ne, sw or se. turn: 1 clockwise, -1 anticlockwise, 2 half turn."""

    kind: Kind
    size: int
    frm: int
    to: int
    coaster: str
    turn: int


_RE = re.compile(
    r"^(?:([sml])@([a-f][1-6])|([a-f][1-6])-([a-f][1-6]))[\s,]*(nw|ne|sw|se)(\+\+|--|\+|-)$"
)


def parse_move(text: str) -> Move:
    m = _RE.match(text.strip().lower())
    if m is None:
        raise NotationError(
            f"cannot read {text.strip()!r}: write a piece action and a board action, "
            "such as `L@c3 ne+` (drop) or `c3-c4 sw++` (step)"
        )
    drop_size, drop_sq, frm, to, coaster, turn = m.groups()
    if drop_size is not None:
        sq = parse_square(drop_sq)
        if sq is None:
            raise NotationError(f"{drop_sq!r} is not a square")
        return Move("drop", SIZES.index(drop_size.upper()) + 1, -1, sq, coaster, _TURN[turn])
    a, b = parse_square(frm), parse_square(to)
    if a is None or b is None:
        raise NotationError(f"{frm if a is None else to!r} is not a square")
    return Move("step", 0, a, b, coaster, _TURN[turn])


def format_move(move: Move) -> str:
    if move.kind == "drop":
        piece = f"{SIZES[move.size - 1]}@{square_name(move.to)}"
    else:
        piece = f"{square_name(move.frm)}-{square_name(move.to)}"
    return f"{piece} {move.coaster}{TURN_TEXT[move.turn]}"
