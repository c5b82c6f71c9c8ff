"""The 12 pentominoes and their 8 orientations (4 quarter turns, either side up).

Cells are (x, y) with x growing east and y growing north. A shape is normalised so that
its bounding box starts at (0, 0); a placement puts that corner on a grid square.
"""

from __future__ import annotations

from typing import Final

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

# Each drawing is read top row first; `#` is a square of the tile.
_DRAWINGS: Final[dict[str, tuple[str, ...]]] = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("#...", "####"),
    "N": ("##..", ".###"),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": ("####", ".#.."),
    "Z": ("##.", ".#.", ".##"),
}

PIECES: Final[tuple[str, ...]] = tuple(_DRAWINGS)


def _normalise(cells: list[Cell]) -> Shape:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def _base(letter: str) -> Shape:
    rows = _DRAWINGS[letter]
    top = len(rows) - 1
    return _normalise(
        [(x, top - r) for r, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"]
    )


def transform(letter: str, flip: bool, rot: int) -> Shape:
    """The shape of `letter` turned over (mirrored east-west) when `flip`, then turned
    `rot` quarter turns clockwise."""
    cells = [(-x, y) if flip else (x, y) for x, y in _base(letter)]
    for _ in range(rot % 4):
        cells = [(y, -x) for x, y in cells]
    return _normalise(cells)


SHAPES: Final[dict[tuple[str, bool, int], Shape]] = {
    (p, f, r): transform(p, f, r) for p in PIECES for f in (False, True) for r in range(4)
}


def _distinct(letter: str) -> tuple[tuple[bool, int], ...]:
    seen: set[Shape] = set()
    out: list[tuple[bool, int]] = []
    for f in (False, True):
        for r in range(4):
            s = SHAPES[(letter, f, r)]
            if s not in seen:
                seen.add(s)
                out.append((f, r))
    return tuple(out)


# Per piece, the first (flip, rot) of every distinct orientation: 63 in all.
ORIENTATIONS: Final[dict[str, tuple[tuple[bool, int], ...]]] = {p: _distinct(p) for p in PIECES}

COLOURS: Final[tuple[str, ...]] = ("white", "black", "red", "blue")
