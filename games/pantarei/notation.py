"""Move and scale notation (docs/rules-pantarei.md).

Slots are numbered 1 to 19 from the head of the snake, as laid out in the setup. A slot
keeps its number for the whole game; a slot whose scales have all left is empty.

- `7-10`  the top scale of the stack on slot 7 goes onto the stack on slot 10;
- `7=10`  the top scale and the single scale under it go together;
- `7x12`  swap the stacks on slots 7 and 12;
- `pass`  miss the turn (only when nothing else is legal).

A scale is its colour and face value: `W1` to `W3`, `B1` to `B3`, and `N` (neutral).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .errors import NotationError

SLOTS = 19
Kind = Literal["move", "swap", "pass"]
OPS: dict[str, tuple[Kind, int]] = {"-": ("move", 1), "=": ("move", 2), "x": ("swap", 0)}
SCALES = ("W1", "W2", "W3", "B1", "B2", "B3", "N")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """kind: move, swap or pass. frm, to: slots 1..19 (0 for a pass). count: scales
    carried by a move (1 or 2), 0 for a swap or pass."""

    kind: Kind
    frm: int = 0
    to: int = 0
    count: int = 0


PASS = Move("pass")
_MOVE = re.compile(r"^(\d{1,2})\s*([-=x])\s*(\d{1,2})$")


def parse_move(text: str) -> Move:
    s = text.strip().lower()
    if s == "pass":
        return PASS
    m = _MOVE.match(s)
    if m is None:
        raise NotationError(
            f"cannot read {text.strip()!r}: write `7-10` (one scale), `7=10` (two scales), "
            "`7x12` (swap) or `pass`"
        )
    frm, to = int(m.group(1)), int(m.group(3))
    for slot in (frm, to):
        if not 1 <= slot <= SLOTS:
            raise NotationError(f"slot {slot} does not exist: slots are 1 to {SLOTS}")
    kind, count = OPS[m.group(2)]
    if kind == "swap" and frm > to:
        frm, to = to, frm  # a swap is the same whichever slot is named first
    return Move(kind, frm, to, count)


def format_move(move: Move) -> str:
    if move.kind == "pass":
        return "pass"
    op = "x" if move.kind == "swap" else "-" if move.count == 1 else "="
    return f"{move.frm}{op}{move.to}"


def parse_scale(text: str) -> str:
    s = text.strip().upper()
    if s not in SCALES:
        raise NotationError(f"unknown scale {text!r}: scales are {', '.join(SCALES)}")
    return s


def colour(scale: str) -> str:
    """'W', 'B' or 'N'."""
    return scale[0]


def value(scale: str) -> int:
    """Face value: 1 to 3; 0 for the neutral scale, which cannot move by itself."""
    return 0 if scale == "N" else int(scale[1])
