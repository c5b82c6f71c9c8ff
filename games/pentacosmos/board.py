"""The board as data, read from board.json (our Cairo-tiling reconstruction, see
cairo.py); replace that file by the published board and the engine follows.

Spaces are numbered 1..N; ADJ[s] lists the spaces sharing an edge with s (ADJ[0] is
unused). A gem space is surrounded by its `ring` of spaces and is worth len(ring) points.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

KINDS: Final = ("sun", "moon", "star", "crystal")
GEM_COLOURS: Final = {"sun": "black", "moon": "white", "star": "blue", "crystal": "clear"}


@dataclass(frozen=True, slots=True)
class Gem:
    name: str
    kind: str
    ring: tuple[int, ...]

    @property
    def value(self) -> int:
        return len(self.ring)


@dataclass(frozen=True, slots=True)
class Board:
    adj: tuple[tuple[int, ...], ...]
    gems: tuple[Gem, ...]
    corners: tuple[tuple[tuple[float, float], ...], ...]

    @property
    def size(self) -> int:
        return len(self.adj) - 1


def load(path: Path | None = None) -> Board:
    data = json.loads((path or Path(__file__).with_name("board.json")).read_text())
    spaces = sorted(data["spaces"], key=lambda s: s["id"])
    if [s["id"] for s in spaces] != list(range(1, len(spaces) + 1)):
        raise ValueError("board spaces must be numbered 1..N")
    adj = ((),) + tuple(tuple(s["adj"]) for s in spaces)
    corners = ((),) + tuple(tuple((float(x), float(y)) for x, y in s["corners"]) for s in spaces)
    gems = tuple(Gem(g["name"], g["kind"], tuple(g["ring"])) for g in data["gems"])
    return Board(adj, gems, corners)


BOARD: Final = load()
ADJ: Final = BOARD.adj
GEMS: Final = BOARD.gems
SPACES: Final = BOARD.size
TOTAL_POINTS: Final = sum(g.value for g in GEMS)
WIN_POINTS: Final = TOTAL_POINTS // 2 + 1  # 116 of 230
# The gems whose ring holds each space.
GEMS_AT: Final = tuple(
    tuple(k for k, g in enumerate(GEMS) if s in g.ring) for s in range(SPACES + 1)
)
