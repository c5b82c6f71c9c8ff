"""The board: 100 stops as integer ids, lines, chords and the bit masks used for paths.

Ids 0..4 are the corners W B R Y G (clockwise round the rim), 5..9 the crossings
w b r y g. Each crossing is opposite the corner of its colour. The 90 line stops follow,
line by line, numbered from the line's first node so that a line's stops are consecutive
bits of a 100-bit occupancy mask.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = "wbryg"
COLOUR_NAMES: Final = ("white", "blue", "red", "yellow", "green")
NODE_NAMES: Final = "WBRYGwbryg"
N_STOPS: Final = 100
# What a stop holds besides a seat's piece (0..4): a black block (BLACK_BASE + its
# number), a grey block (GREY_BASE + its number), or nothing (EMPTY); a piece's stop is
# OUT once it has left the board. Here, below rules.py and playloop.py, so that both
# read them and neither imports the other's module for them.
BLACK_BASE: Final = 100
GREY_BASE: Final = 200
EMPTY: Final = -1
OUT: Final = -1
CORNERS: Final = (0, 1, 2, 3, 4)
CROSSINGS: Final = (5, 6, 7, 8, 9)


def corner(colour: int) -> int:
    return colour


def crossing(colour: int) -> int:
    return 5 + colour


def _lines() -> tuple[tuple[int, int, int], ...]:
    """(first node, second node, stops) for the 20 lines.

    Rim and inner lines are listed clockwise (W->B, w->b), so the first node is the one
    that precedes the other clockwise; long lines start at their corner.
    """
    rim = [(corner(i), corner((i + 1) % 5), 3) for i in range(5)]
    inner = [(crossing(i), crossing((i + 1) % 5), 3) for i in range(5)]
    long = [(corner(i), crossing((i + d) % 5), 6) for i in range(5) for d in (2, 3)]
    return tuple(rim + inner + long)


LINES: Final = _lines()
N_LINES: Final = len(LINES)

# Per line: first stop id (the stop next to the first node).
LINE_BASE: Final[tuple[int, ...]] = tuple(
    10 + sum(n for _, _, n in LINES[:i]) for i in range(N_LINES)
)
LINE_FULL: Final[tuple[int, ...]] = tuple((1 << n) - 1 for _, _, n in LINES)

# For a line stop: its line and 0-based index along the line; -1 for nodes.
STOP_LINE: list[int] = [-1] * N_STOPS
STOP_INDEX: list[int] = [-1] * N_STOPS
for _li, (_a, _b, _n) in enumerate(LINES):
    for _k in range(_n):
        STOP_LINE[LINE_BASE[_li] + _k] = _li
        STOP_INDEX[LINE_BASE[_li] + _k] = _k

# For a node: (line, node at the far end, True when the node is the line's first node).
NODE_LINES: Final[tuple[tuple[tuple[int, int, bool], ...], ...]] = tuple(
    tuple(
        (li, (b if a == node else a), a == node)
        for li, (a, b, _) in enumerate(LINES)
        if node in (a, b)
    )
    for node in range(10)
)


def _adjacency() -> tuple[tuple[int, ...], ...]:
    adj: list[list[int]] = [[] for _ in range(N_STOPS)]
    for li, (a, b, n) in enumerate(LINES):
        seq = [a, *range(LINE_BASE[li], LINE_BASE[li] + n), b]
        for x, y in zip(seq, seq[1:], strict=False):
            adj[x].append(y)
            adj[y].append(x)
    return tuple(tuple(sorted(s)) for s in adj)


ADJ: Final = _adjacency()


def line_between(x: int, y: int) -> int:
    """The line joining nodes x and y, or -1."""
    for li, other, _ in NODE_LINES[x]:
        if other == y:
            return li
    return -1


def line_sequence(li: int) -> list[int]:
    a, b, n = LINES[li]
    return [a, *range(LINE_BASE[li], LINE_BASE[li] + n), b]


def _chords() -> tuple[tuple[int, ...], ...]:
    """The five straight chords corner-crossing-crossing-corner, every stop in order."""
    chords = []
    for i in range(5):
        nodes = [corner(i), crossing((i + 2) % 5), crossing((i + 1) % 5), corner((i + 3) % 5)]
        seq: list[int] = [nodes[0]]
        for x, y in zip(nodes, nodes[1:], strict=False):
            part = line_sequence(line_between(x, y))
            if part[0] != x:
                part.reverse()
            seq.extend(part[1:])
        chords.append(tuple(seq))
    return tuple(chords)


CHORDS: Final = _chords()


def walk(x: int, y: int) -> tuple[int, ...] | None:
    """Stops from node x to node y along their line or chord (both included), or None."""
    li = line_between(x, y)
    if li >= 0:
        seq = line_sequence(li)
        return tuple(seq if seq[0] == x else reversed(seq))
    for chord in CHORDS:
        if x in chord and y in chord:
            i, j = chord.index(x), chord.index(y)
            return chord[i : j + 1] if i < j else tuple(reversed(chord[j : i + 1]))
    return None


def _names() -> tuple[str, ...]:
    names = list(NODE_NAMES)
    for a, b, n in LINES:
        for k in range(1, n + 1):
            if n == 6:
                name = f"{NODE_NAMES[a]}{k}{NODE_NAMES[b]}" if k <= 3 else ""
                name = name or f"{NODE_NAMES[b]}{n + 1 - k}{NODE_NAMES[a]}"
            elif k == n:
                name = f"{NODE_NAMES[b]}1{NODE_NAMES[a]}"
            else:
                # Stop 1 is nearer a; the middle stop is named from a, which precedes b
                # clockwise.
                name = f"{NODE_NAMES[a]}{k}{NODE_NAMES[b]}"
            names.append(name)
    return tuple(names)


STOP_NAMES: Final = _names()


def bits(mask: int) -> list[int]:
    """Stop ids of the set bits of a mask, ascending."""
    out: list[int] = []
    for i, byte in enumerate(mask.to_bytes(13, "little")):
        if byte:
            out.extend(BYTE_STOPS[i][byte])
    return out


BYTE_STOPS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * i + j for j in range(8) if byte >> j & 1) for byte in range(256))
    for i in range(13)
)
