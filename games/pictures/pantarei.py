"""The Pantarei picture: the snake of 19 slots, head to tail, with its stacks of scales.

The snake winds over three rows (7, 7 and 5 slots), head at the top left. A stack is
drawn as a pile of scales, bottom scale on the snake's body, the top scale (the one that
decides who controls the stack) outlined more strongly; every scale shows its face
value. Slot numbers are the move notation's.
"""

from __future__ import annotations

import math

from games.pantarei import parse_move
from games.pantarei.errors import PantareiError
from games.pantarei.notation import SLOTS, colour, value
from games.pantarei.rules import WIN_HEIGHT, State, controller, deadlocked, finished

from .shapes import Picture, Point, Seat, Shape, num, text, viewbox

PER_ROW = 7
DX = 3.0  # slot pitch along a row
DY = 6.2  # row pitch
X0, Y0 = 3.2, 4.6  # centre of slot 1 on the body
CHIP_W, CHIP_H, CHIP_STEP = 2.3, 0.5, 0.56

FILLS = {"W": "#f7f6f0", "B": "#23232a", "N": "#d4a72c"}
INKS = {"W": "#1d2430", "B": "#ffffff", "N": "#2b2100"}
NAMES = {"W": "White", "B": "Black", "N": "Neutral"}
TURN_R = 1.5  # how far a turn of the snake reaches beyond the row
BODY, BODY_EDGE = "#8fb573", "#4d6e3a"


def slot_xy(slot: int) -> Point:
    """Centre of a slot (0-based) on the snake's body."""
    row, col = divmod(slot, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return X0 + col * DX, Y0 + row * DY


def _body() -> list[Shape]:
    path: list[Point] = []
    for slot in range(SLOTS):
        x, y = slot_xy(slot)
        row, col = divmod(slot, PER_ROW)
        path.append((x, y))
        # Turn in a half ellipse outside the last column of the row.
        if col == PER_ROW - 1 and slot < SLOTS - 1:
            side = 1.0 if row % 2 == 0 else -1.0
            for k in range(1, 12):
                a = math.pi * k / 12
                path.append((x + side * TURN_R * math.sin(a), y + DY / 2 * (1 - math.cos(a))))
    hx, hy = slot_xy(0)
    tx, ty = slot_xy(SLOTS - 1)
    path = [(hx - 1.2, hy), *path, (tx + 1.6, ty)]
    shapes: list[Shape] = [
        {
            "type": "polyline",
            "points": [(num(x), num(y)) for x, y in path],
            "fill": "none",
            "stroke": BODY_EDGE,
            "stroke_width": 1.75,
        },
        {
            "type": "polyline",
            "points": [(num(x), num(y)) for x, y in path],
            "fill": "none",
            "stroke": BODY,
            "stroke_width": 1.45,
        },
        # The tail: a tapering tip after slot 19.
        {
            "type": "polygon",
            "points": [
                (num(tx + 1.5), num(ty - 0.72)),
                (num(tx + 3.4), num(ty)),
                (num(tx + 1.5), num(ty + 0.72)),
            ],
            "fill": BODY,
            "stroke": BODY_EDGE,
            "stroke_width": 0.12,
        },
        # The head before slot 1, with eyes and a tongue.
        {
            "type": "polyline",
            "points": [
                (num(hx - 3.0), num(hy)),
                (num(hx - 3.5), num(hy - 0.3)),
                (num(hx - 3.0), num(hy)),
                (num(hx - 3.5), num(hy + 0.3)),
            ],
            "fill": "none",
            "stroke": "#c0392b",
            "stroke_width": 0.12,
        },
        {
            "type": "ellipse",
            "x": num(hx - 1.85),
            "y": num(hy),
            "rx": 1.25,
            "ry": 0.95,
            "fill": BODY,
            "stroke": BODY_EDGE,
            "stroke_width": 0.12,
        },
        {"type": "circle", "x": num(hx - 2.3), "y": num(hy - 0.38), "r": 0.16, "fill": "#111"},
        {"type": "circle", "x": num(hx - 2.3), "y": num(hy + 0.38), "r": 0.16, "fill": "#111"},
        text(hx - 1.9, hy - 1.35, "head", 0.55, fill="#4d6e3a"),
        text(tx + 2.5, ty + 1.45, "tail", 0.55, fill="#4d6e3a"),
    ]
    return shapes


def _last_slots(last: str | None) -> set[int]:
    """0-based slots touched by the last move (none for a pass or an unreadable move)."""
    if not last:
        return set()
    try:
        move = parse_move(last)
    except PantareiError:
        return set()
    return set() if move.kind == "pass" else {move.frm - 1, move.to - 1}


def _scale_name(scale: str) -> str:
    return "the neutral scale" if scale == "N" else f"{NAMES[colour(scale)]} {value(scale)}"


def _stack(slot: int, stack: tuple[str, ...], marked: bool) -> list[Shape]:
    x, y = slot_xy(slot)
    shapes: list[Shape] = []
    if marked:
        shapes.append(
            {
                "type": "rect",
                "x": num(x - DX / 2 + 0.12),
                "y": num(y - 0.6 - max(len(stack), 1) * CHIP_STEP),
                "w": num(DX - 0.24),
                "h": num(max(len(stack), 1) * CHIP_STEP + 1.05),
                "rx": 0.3,
                "fill": "#fff3c4",
                "stroke": "#b08a00",
                "stroke_width": 0.1,
                "dash": "0.3 0.2",
                "cls": "fb-last",
            }
        )
    if not stack:
        shapes.append(
            {
                "type": "ellipse",
                "x": num(x),
                "y": num(y),
                "rx": 0.8,
                "ry": 0.32,
                "fill": "none",
                "stroke": "#3d5a2d",
                "stroke_width": 0.08,
                "dash": "0.2 0.15",
                "title": f"slot {slot + 1}: empty",
            }
        )
    for level, scale in enumerate(stack):
        top = level == len(stack) - 1
        c = colour(scale)
        cy = y - 0.05 - level * CHIP_STEP
        where = f"slot {slot + 1}, {'top' if top else f'scale {level + 1} from the bottom'}"
        shapes.append(
            {
                "type": "rect",
                "x": num(x - CHIP_W / 2),
                "y": num(cy - CHIP_H / 2),
                "w": CHIP_W,
                "h": CHIP_H,
                "rx": 0.24,
                "fill": FILLS[c],
                "stroke": "#b3261e" if top and len(stack) > 1 else "#15151a",
                "stroke_width": 0.11 if top else 0.06,
                "title": f"{_scale_name(scale)} ({where})",
                "thing": f"scale {slot + 1}.{level}",
            }
        )
        shapes.append(text(x, cy + 0.16, "N" if c == "N" else str(value(scale)), 0.44, INKS[c]))
    if len(stack) > 1:
        top_y = y - 0.05 - (len(stack) - 1) * CHIP_STEP - CHIP_H / 2
        shapes.append(
            text(
                x + CHIP_W / 2 + 0.05,
                top_y - 0.05,
                f"{len(stack)}",
                0.42,
                fill="#b3261e" if len(stack) >= WIN_HEIGHT else "#3b3a36",
                anchor="start",
                weight="bold",
            )
        )
    shapes.append(text(x, y + 1.05, str(slot + 1), 0.5, fill="#2d3b22", weight="bold"))
    return shapes


def picture(state: State, last: str | None = None) -> Picture:
    """The snake with every stack; `last` (the last move's notation) is marked."""
    shapes = _body()
    marked = _last_slots(last)
    for slot, stack in enumerate(state.slots):
        shapes += _stack(slot, stack, slot in marked)
    seats: list[Seat] = []
    for seat in (0, 1):
        c = state.colour_of(seat)
        own = [len(st) for st in state.slots if controller(st) == c]
        seats.append(
            {
                "colour": NAMES[c],
                "fill": FILLS[c],
                "stroke": "#15151a",
                "score": f"tallest stack {max(own, default=0)} of {WIN_HEIGHT}",
                "details": [f"controls {len(own)} stack{'s' if len(own) != 1 else ''}"],
            }
        )
    done = finished(state)
    status = ""
    if not done and state.last_swap:
        status = "No swap this turn: the opponent has just swapped."
    elif done and state.winner is None and deadlocked(state):
        status = "Neither player can move or swap: a draw."
    box, w, h = viewbox(-0.9, 0.0, X0 + (PER_ROW - 1) * DX + DX * 0.75 + 0.4, Y0 + 2 * DY + 1.6)
    heights = [len(st) for st in state.slots if st]
    return {
        "game": "pantarei",
        "viewbox": box,
        "width": w,
        "height": h,
        "shapes": shapes,
        "title": (
            f"The snake: {len(heights)} stacks on 19 slots, the tallest "
            f"{max(heights, default=0)} high"
        ),
        "seats": seats,
        "to_move": None if done else state.to_move,
        "status": status,
        "finished": done,
        "winners": [] if state.winner is None else [state.winner],
        "notes": ["Slots are numbered from the head (1) to the tail (19)."],
    }
