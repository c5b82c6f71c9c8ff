"""The board: four Martian Coasters of 3×3 squares laid out as a 2×2 square (6×6).

Squares are `a1` to `f6`: files a–f left to right, ranks 1–6 bottom to top; index
`rank * 6 + file` with both counted from 0. The coasters are named by their corner of
the board: `sw` (a–c, 1–3), `se` (d–f, 1–3), `nw` (a–c, 4–6) and `ne` (d–f, 4–6).
"""

from __future__ import annotations

SIZE = 6
SQUARES = SIZE * SIZE
FILES = "abcdef"
COASTERS = ("nw", "ne", "sw", "se")
# Lower-left corner (file, rank) of each coaster.
CORNER = {"nw": (0, 3), "ne": (3, 3), "sw": (0, 0), "se": (3, 0)}
# Board actions: +1 a quarter turn clockwise, -1 anticlockwise, 2 a half turn (seen from
# above with rank 6 at the top).
TURNS = (1, -1, 2)
LINE = 5


def square(file: int, rank: int) -> int:
    return rank * SIZE + file


def square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(text: str) -> int | None:
    if len(text) == 2 and text[0] in FILES and text[1] in "123456":
        return square(FILES.index(text[0]), int(text[1]) - 1)
    return None


def _neighbours(sq: int) -> tuple[int, ...]:
    f, r = sq % SIZE, sq // SIZE
    steps = ((f + df, r + dr) for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    return tuple(square(x, y) for x, y in steps if 0 <= x < SIZE and 0 <= y < SIZE)


NEIGHBOURS = tuple(_neighbours(sq) for sq in range(SQUARES))


def _quarter(x: int, y: int) -> tuple[int, int]:
    """Where local square (x, y) of a coaster goes in a clockwise quarter turn."""
    return y, 2 - x


def _rotation(coaster: str, turn: int) -> tuple[int, ...]:
    """`src` with new_board[i] = board[src[i]] after the board action."""
    fx, fy = CORNER[coaster]
    src = list(range(SQUARES))
    quarters = {1: 1, 2: 2, -1: 3}[turn]
    for x in range(3):
        for y in range(3):
            nx, ny = x, y
            for _ in range(quarters):
                nx, ny = _quarter(nx, ny)
            src[square(fx + nx, fy + ny)] = square(fx + x, fy + y)
    return tuple(src)


ROTATIONS = {(c, t): _rotation(c, t) for c in COASTERS for t in TURNS}
COASTER_SQUARES = {
    c: tuple(square(CORNER[c][0] + x, CORNER[c][1] + y) for y in range(3) for x in range(3))
    for c in COASTERS
}


def _lines() -> tuple[tuple[int, ...], ...]:
    out = []
    for f in range(SIZE):
        for r in range(SIZE):
            for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_f, end_r = f + df * (LINE - 1), r + dr * (LINE - 1)
                if 0 <= end_f < SIZE and 0 <= end_r < SIZE:
                    out.append(tuple(square(f + df * k, r + dr * k) for k in range(LINE)))
    return tuple(out)


# Every run of five squares in a row, column or diagonal: 12 + 12 + 4 + 4 = 32.
LINES = _lines()
