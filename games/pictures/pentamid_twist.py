"""The Pentamid Twist picture: four Martian Coasters of 3×3 squares, pyramids seen from
above, and each player's reserve of nests.

A pyramid is a square of its size (large, medium, small) in its owner's colour, with the
faces shaded and one to three pips. Only the top pyramid of a square is seen; the ones
it covers are hinted as small squares in the square's corner, bottom one first. A
reserve nest is drawn as the pyramids stacked in it, one inside the other.
"""

from __future__ import annotations

from games.pentamid_twist import parse_move
from games.pentamid_twist.board import COASTER_SQUARES, COASTERS, FILES, ROTATIONS, SIZE
from games.pentamid_twist.errors import TwistError
from games.pentamid_twist.rules import NESTS, SIZE_NAMES, State, owner, result, size_of

from .shapes import Picture, Point, Seat, Shape, num, text, viewbox

GAP = 0.32  # between two coasters
LEFT, TOP = 0.75, 0.35
SIDES = {3: 0.84, 2: 0.64, 1: 0.44}  # pyramid base by size
HINT = {3: 0.2, 2: 0.16, 1: 0.12}
FILLS = ("#c8372d", "#2f63b5")
NAMES = ("Red", "Blue")
LETTERS = {1: "S", 2: "M", 3: "L"}
NEST_DX = 1.08


def square_xy(sq: int) -> Point:
    """Top-left corner of a square (index rank * 6 + file)."""
    f, r = sq % SIZE, sq // SIZE
    return (
        LEFT + f + (GAP if f >= 3 else 0.0),
        TOP + (SIZE - 1 - r) + (GAP if r < 3 else 0.0),
    )


def _square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def _pyramid(cx: float, cy: float, size: int, seat: int, title: str, thing: str) -> list[Shape]:
    s = SIDES[size]
    h = s / 2
    x0, y0, x1, y1 = cx - h, cy - h, cx + h, cy + h
    shapes: list[Shape] = [
        {
            "type": "rect",
            "x": num(x0),
            "y": num(y0),
            "w": num(s),
            "h": num(s),
            "fill": FILLS[seat],
            "stroke": "#15151a",
            "stroke_width": 0.04,
            "title": title,
            "thing": thing,
        },
        # Faces: lit from the top left.
        {
            "type": "polygon",
            "points": [(num(x0), num(y0)), (num(x1), num(y0)), (num(cx), num(cy))],
            "fill": "#ffffff",
            "opacity": 0.3,
        },
        {
            "type": "polygon",
            "points": [(num(x0), num(y0)), (num(x0), num(y1)), (num(cx), num(cy))],
            "fill": "#ffffff",
            "opacity": 0.15,
        },
        {
            "type": "polygon",
            "points": [(num(x1), num(y0)), (num(x1), num(y1)), (num(cx), num(cy))],
            "fill": "#000000",
            "opacity": 0.18,
        },
        {
            "type": "path",
            "d": f"M{num(x0)} {num(y0)}L{num(x1)} {num(y1)}M{num(x1)} {num(y0)}L{num(x0)} {num(y1)}",
            "fill": "none",
            "stroke": "#15151a",
            "stroke_width": 0.02,
            "opacity": 0.6,
        },
    ]
    # Pips on the bottom face.
    for k in range(size):
        px = cx + (k - (size - 1) / 2) * s * 0.16
        shapes.append(
            {
                "type": "circle",
                "x": num(px),
                "y": num(cy + s * 0.32),
                "r": num(s * 0.045),
                "fill": "#ffffff",
            }
        )
    return shapes


def _coasters(turned: str | None) -> list[Shape]:
    shapes: list[Shape] = []
    for c in COASTERS:
        squares = COASTER_SQUARES[c]
        xs = [square_xy(sq)[0] for sq in squares]
        ys = [square_xy(sq)[1] for sq in squares]
        x0, y0 = min(xs) - 0.08, min(ys) - 0.08
        last = c == turned
        shapes.append(
            {
                "type": "rect",
                "x": num(x0),
                "y": num(y0),
                "w": 3.16,
                "h": 3.16,
                "rx": 0.22,
                "fill": "#e9dcc0",
                "stroke": "#b08a00" if last else "#7a6a48",
                "stroke_width": 0.09 if last else 0.05,
                "cls": "fb-last" if last else "",
                "title": f"the {c} coaster" + (", turned by the last move" if last else ""),
            }
        )
        for sq in squares:
            x, y = square_xy(sq)
            dark = (sq % SIZE + sq // SIZE) % 2 == 0
            shapes.append(
                {
                    "type": "rect",
                    "x": num(x + 0.04),
                    "y": num(y + 0.04),
                    "w": 0.92,
                    "h": 0.92,
                    "rx": 0.08,
                    "fill": "#d9c8a3" if dark else "#f4ead3",
                    "stroke": "#a8956b",
                    "stroke_width": 0.02,
                }
            )
    return shapes


def _labels() -> list[Shape]:
    shapes: list[Shape] = []
    for f in range(SIZE):
        x, y = square_xy(f)  # rank 1
        shapes.append(text(x + 0.5, y + 1.5, FILES[f], 0.36, fill="#5b6575"))
    for r in range(SIZE):
        x, y = square_xy(r * SIZE)
        shapes.append(text(LEFT - 0.35, y + 0.62, str(r + 1), 0.36, fill="#5b6575"))
    return shapes


def _last(last: str | None) -> tuple[str | None, int | None, str]:
    """The coaster the last move turned, the square its piece ends on after the turn,
    and a word for the turn."""
    if not last:
        return None, None, ""
    try:
        move = parse_move(last)
    except TwistError:
        return None, None, ""
    src = ROTATIONS.get((move.coaster, move.turn))
    if src is None or not 0 <= move.to < SIZE * SIZE:
        return None, None, ""
    after = src.index(move.to)
    word = {1: "a quarter turn clockwise", -1: "a quarter turn anticlockwise", 2: "a half turn"}
    return move.coaster, after, word.get(move.turn, "")


def _square(sq: int, stack: tuple[int, ...], marked: bool) -> list[Shape]:
    x, y = square_xy(sq)
    name = _square_name(sq)
    shapes: list[Shape] = []
    if marked:
        shapes.append(
            {
                "type": "rect",
                "x": num(x + 0.02),
                "y": num(y + 0.02),
                "w": 0.96,
                "h": 0.96,
                "rx": 0.1,
                "fill": "#fff3c4",
                "stroke": "#b08a00",
                "stroke_width": 0.06,
                "cls": "fb-last",
            }
        )
    if not stack:
        return shapes
    top = stack[-1]
    covered = stack[:-1]
    title = f"{NAMES[owner(top)]} {SIZE_NAMES[size_of(top)]} on {name}"
    if covered:
        title += ", covering " + ", ".join(
            f"{NAMES[owner(p)].lower()} {SIZE_NAMES[size_of(p)]}" for p in covered
        )
    shapes += _pyramid(
        x + 0.5, y + 0.5, size_of(top), owner(top), title, f"board {name}.{len(covered)}"
    )
    hx = x + 0.06
    for level, p in enumerate(covered):
        s = HINT[size_of(p)]
        shapes.append(
            {
                "type": "rect",
                "x": num(hx),
                "y": num(y + 0.06),
                "w": s,
                "h": s,
                "fill": FILLS[owner(p)],
                "stroke": "#ffffff",
                "stroke_width": 0.025,
                "title": f"covered: {NAMES[owner(p)].lower()} {SIZE_NAMES[size_of(p)]}",
                "thing": f"board {name}.{level}",
            }
        )
        hx += s + 0.02
    return shapes


def _reserve(state: State, seat: int, y: float) -> list[Shape]:
    large, medium, small = state.reserve[seat]
    nests = [(3, 2, 1)] * large + [(2, 1)] * medium + [(1,)] * small
    shapes: list[Shape] = [
        text(
            LEFT - 0.35,
            y + 0.62,
            NAMES[seat],
            0.36,
            fill=FILLS[seat],
            anchor="start",
            weight="bold",
        ),
    ]
    x0 = LEFT + 0.85
    for k in range(NESTS):
        cx, cy = x0 + k * NEST_DX + 0.5, y + 0.5
        if k >= len(nests):
            shapes.append(
                {
                    "type": "rect",
                    "x": num(cx - 0.44),
                    "y": num(cy - 0.44),
                    "w": 0.88,
                    "h": 0.88,
                    "rx": 0.08,
                    "fill": "none",
                    "stroke": "#a8956b",
                    "stroke_width": 0.03,
                    "dash": "0.08 0.06",
                    "title": f"{NAMES[seat]} nest {k + 1}: empty",
                }
            )
            continue
        for size in nests[k]:
            s = SIDES[size] * 1.02
            shapes.append(
                {
                    "type": "rect",
                    "x": num(cx - s / 2),
                    "y": num(cy - s / 2),
                    "w": num(s),
                    "h": num(s),
                    "fill": FILLS[seat],
                    "stroke": "#ffffff" if size < nests[k][0] else "#15151a",
                    "stroke_width": 0.035,
                    "title": f"{NAMES[seat]} nest {k + 1}: {SIZE_NAMES[size]}"
                    + (" (on top)" if size == nests[k][0] else ""),
                    "thing": f"reserve {seat}.{k}.{LETTERS[size]}",
                }
            )
    return shapes


def picture(state: State, last: str | None = None) -> Picture:
    """The board, both reserves and the last move's coaster and piece marked."""
    turned, mark, word = _last(last)
    shapes = _coasters(turned)
    shapes += _labels()
    for sq, stack in enumerate(state.board):
        shapes += _square(sq, stack, sq == mark)
    board_bottom = square_xy(0)[1] + 1.0 + 0.75
    for seat in (0, 1):
        shapes += _reserve(state, seat, board_bottom + seat * 1.12)
    width = LEFT + SIZE + GAP + 0.35
    box, w, h = viewbox(
        0.0, 0.0, max(width, LEFT + 0.85 + NESTS * NEST_DX + 0.2), board_bottom + 2 * 1.12 + 0.1
    )
    seats: list[Seat] = []
    for seat in (0, 1):
        on_board = sum(1 for st in state.board for p in st if owner(p) == seat)
        uncovered = sum(1 for st in state.board if st and owner(st[-1]) == seat)
        large, medium, small = state.reserve[seat]
        seats.append(
            {
                "colour": NAMES[seat],
                "fill": FILLS[seat],
                "stroke": "#15151a",
                "score": f"{uncovered} uncovered",
                "details": [
                    f"{on_board} on the board, {3 * large + 2 * medium + small} in reserve"
                ],
            }
        )
    status = f"Last move turned the {turned} coaster {word}." if turned else ""
    if state.over and state.winner is None:
        status = "The game ended in a draw."
    return {
        "game": "pentamid_twist",
        "viewbox": box,
        "width": w,
        "height": h,
        "shapes": shapes,
        "title": (
            f"Four coasters, {sum(1 for st in state.board if st)} squares holding pyramids; "
            "the reserves below"
        ),
        "seats": seats,
        "to_move": None if state.over else state.to_move,
        "status": status,
        "finished": state.over,
        "winners": [i for i, v in enumerate(result(state)) if v],
        "notes": ["Covered pyramids are shown as small squares in the corner, bottom one first."],
    }
