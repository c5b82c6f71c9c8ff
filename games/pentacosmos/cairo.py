"""Our reconstruction of the PentaCosmos board on a Cairo pentagonal tiling.

The rules give the numbers but not the drawing (docs/rules-pentacosmos.md). The Cairo
tiling is built on a square lattice of n x n cells coloured like a checkerboard: a cell
with (i + j) even holds a horizontal segment, the others a vertical one, and the ends of
the segment are joined to the cell's nearest corners. Every lattice edge then carries
exactly one pentagon (half in each of the two cells beside it), four pentagons meet at
every lattice point, and three at every segment end. Gem spaces are carved out of it:

- Star: one pentagon, surrounded by 5 pentagons;
- Crystal: a small square at a lattice point, surrounded by the 4 pentagons meeting there;
- Moon: the 4 pentagons around a lattice point merged, surrounded by 8 pentagons;
- Sun: the 4 pentagons on the sides of one cell merged, surrounded by 10 pentagons.

`build()` lays out 10 Suns, 10 Moons, 6 Stars and 5 Crystals (symmetric under a half
turn about the centre) and returns the board as plain data; `python -m
games.pentacosmos.cairo` rewrites board.json from it. The engine reads only board.json,
so a drawing of the published board can replace it.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

Edge = tuple[str, int, int]  # ("h", i, j): lattice point (i, j) to (i + 1, j); "v": to (i, j + 1)

SIZE = 12  # cells per side
# Half-segment length that makes all pentagon edges equal for unit cells.
SEG = (-2 + math.sqrt(28)) / 6 / 2

# The layout: (kind, anchor); Suns are anchored on a cell (i, j), Moons and Crystals on
# a lattice point (i, j), Stars on a lattice edge. Each entry also stands for its image
# under a half turn about the centre (except an entry at the centre itself).
LAYOUT: list[tuple[str, tuple[Any, ...]]] = [
    ("crystal", (6, 6)),
    ("sun", (7, 6)),
    ("sun", (7, 2)),
    ("sun", (3, 2)),
    ("sun", (2, 6)),
    ("sun", (9, 3)),
    ("moon", (10, 8)),
    ("moon", (11, 10)),
    ("moon", (6, 1)),
    ("moon", (1, 11)),
    ("moon", (3, 11)),
    ("star", ("h", 2, 1)),
    ("star", ("h", 5, 4)),
    ("star", ("h", 0, 5)),
    ("crystal", (4, 8)),
    ("crystal", (1, 9)),
]


def cell_sides(i: int, j: int) -> dict[str, Edge]:
    return {"B": ("h", i, j), "T": ("h", i, j + 1), "L": ("v", i, j), "R": ("v", i + 1, j)}


def lattice() -> tuple[list[Edge], dict[Edge, set[Edge]]]:
    edges: list[Edge] = []
    for j in range(SIZE + 1):
        for i in range(SIZE):
            edges.append(("h", i, j))
    for i in range(SIZE + 1):
        for j in range(SIZE):
            edges.append(("v", i, j))
    adj: dict[Edge, set[Edge]] = {e: set() for e in edges}

    def join(a: Edge, b: Edge) -> None:
        adj[a].add(b)
        adj[b].add(a)

    for i in range(SIZE):
        for j in range(SIZE):
            s = cell_sides(i, j)
            join(s["T"], s["B"]) if (i + j) % 2 == 0 else join(s["L"], s["R"])
            for a in "TB":
                for b in "LR":
                    join(s[a], s[b])
    return edges, adj


def around(i: int, j: int) -> list[Edge]:
    """The lattice edges (pentagons) meeting at lattice point (i, j)."""
    return [("h", i, j), ("h", i - 1, j), ("v", i, j), ("v", i, j - 1)]


def turn(kind: str, anchor: tuple[Any, ...]) -> tuple[Any, ...]:
    """The anchor's image under a half turn about the centre of the board."""
    n = SIZE
    if kind == "sun":
        return (n - 1 - anchor[0], n - 1 - anchor[1])
    if kind in ("moon", "crystal"):
        return (n - anchor[0], n - anchor[1])
    d, i, j = anchor
    return (d, n - 1 - i, n - j) if d == "h" else (d, n - i, n - 1 - j)


def region(kind: str, anchor: tuple[Any, ...]) -> list[Edge]:
    if kind == "sun":
        return list(cell_sides(anchor[0], anchor[1]).values())
    if kind == "moon":
        return around(anchor[0], anchor[1])
    if kind == "star":
        return [(anchor[0], anchor[1], anchor[2])]
    return []


def _ends(ci: int, cj: int, side: str) -> list[tuple[float, float]]:
    """The segment ends of cell (ci, cj) joined to both corners of its `side`."""
    if not (0 <= ci < SIZE and 0 <= cj < SIZE):
        return []
    cx, cy = ci + 0.5, cj + 0.5
    if (ci + cj) % 2 == 0:  # horizontal segment
        west, east = (cx - SEG, cy), (cx + SEG, cy)
        return {"B": [west, east], "T": [west, east], "L": [west], "R": [east]}[side]
    south, north = (cx, cy - SEG), (cx, cy + SEG)
    return {"L": [south, north], "R": [south, north], "B": [south], "T": [north]}[side]


def corners(e: Edge) -> list[tuple[float, float]]:
    """The pentagon of a lattice edge, counter-clockwise (cut at the board's border)."""
    d, i, j = e
    if d == "h":
        below = sorted(_ends(i, j - 1, "T"))
        above = sorted(_ends(i, j, "B"), reverse=True)
        pts = [(i, j), *below, (i + 1, j), *above]
    else:
        right = sorted(_ends(i, j, "L"), key=lambda p: p[1])
        left = sorted(_ends(i - 1, j, "R"), key=lambda p: -p[1])
        pts = [(i, j), *right, (i, j + 1), *left]
    return [(round(float(x), 4), round(float(y), 4)) for x, y in pts]


def build() -> dict[str, Any]:
    edges, adj = lattice()
    gems: list[tuple[str, tuple[Any, ...]]] = []
    for kind, anchor in LAYOUT:
        gems.append((kind, anchor))
        image = turn(kind, anchor)
        if image != anchor:
            gems.append((kind, image))
    taken: set[Edge] = set()
    for kind, anchor in gems:
        for e in region(kind, anchor):
            if e in taken or e not in adj:
                raise ValueError(f"{kind} at {anchor} overlaps another gem or the border")
            taken.add(e)
    spaces = [e for e in edges if e not in taken]

    def centre(e: Edge) -> tuple[float, float]:
        pts = corners(e)
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    # Number the spaces in reading order: top row first, west to east.
    spaces.sort(key=lambda e: (-round(centre(e)[1], 3), round(centre(e)[0], 3)))
    number = {e: k + 1 for k, e in enumerate(spaces)}
    gem_data = []
    counters: dict[str, int] = {}
    for kind, anchor in sorted(gems, key=lambda g: ["sun", "moon", "star", "crystal"].index(g[0])):
        part = region(kind, anchor)
        if kind == "crystal":
            ring = set(around(anchor[0], anchor[1]))
        else:
            ring = set().union(*(adj[e] for e in part)) - set(part)
        if not ring <= set(number):
            raise ValueError(f"{kind} at {anchor} touches another gem or the border")
        if kind == "crystal" and not all(e in adj for e in ring):
            raise ValueError(f"crystal at {anchor} is on the border")
        counters[kind] = counters.get(kind, 0) + 1
        gem_data.append(
            {
                "name": f"{kind}{counters[kind]}",
                "kind": kind,
                "anchor": list(anchor),
                "cells": [list(e) for e in part],
                "ring": sorted(number[e] for e in ring),
            }
        )
    return {
        "about": (
            "Reconstruction of the PentaCosmos board on a Cairo tiling "
            "(games/pentacosmos/cairo.py, docs/rules-pentacosmos.md); not the published board."
        ),
        "size": SIZE,
        "spaces": [
            {
                "id": number[e],
                "edge": list(e),
                "adj": sorted(number[n] for n in adj[e] if n in number),
                "corners": [list(p) for p in corners(e)],
            }
            for e in spaces
        ],
        "gems": gem_data,
    }


def main() -> int:
    board = build()
    path = Path(__file__).with_name("board.json")
    path.write_text(json.dumps(board, indent=None, separators=(",", ":")) + "\n")
    kinds: dict[str, int] = {}
    for g in board["gems"]:
        kinds[g["kind"]] = kinds.get(g["kind"], 0) + 1
    sys.stdout.write(f"{len(board['spaces'])} spaces, gems {kinds}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
