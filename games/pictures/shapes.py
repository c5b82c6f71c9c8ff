"""The drawing vocabulary shared by the board pictures: plain dicts, typed.

Coordinates are in board units with y pointing down (as on screen); the page scales the
whole picture to its width through the `viewbox`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NotRequired, TypedDict

Point = tuple[float, float]
# The piece shape of each seat position, 1 to 5: how every page marks a seat's pieces,
# whatever the game (a board page draws its pieces in them too).
SEAT_SHAPES = ("circle", "triangle", "square", "star", "diamond")
Kind = Literal["rect", "circle", "ellipse", "polygon", "polyline", "path", "line", "text"]


class Shape(TypedDict):
    """One element. `type` says which geometry keys are used:

    rect: x, y, w, h (rx rounds the corners); circle: x, y, r; ellipse: x, y, rx, ry;
    polygon / polyline: points; path: d (M/L/Z only); line: x, y, x2, y2;
    text: x, y, text, size (anchor: start, middle, end).
    """

    type: Kind
    x: NotRequired[float]
    y: NotRequired[float]
    x2: NotRequired[float]
    y2: NotRequired[float]
    w: NotRequired[float]
    h: NotRequired[float]
    r: NotRequired[float]
    rx: NotRequired[float]
    ry: NotRequired[float]
    points: NotRequired[list[Point]]
    d: NotRequired[str]
    text: NotRequired[str]
    size: NotRequired[float]
    anchor: NotRequired[str]
    weight: NotRequired[str]
    fill: NotRequired[str]
    stroke: NotRequired[str]
    stroke_width: NotRequired[float]
    dash: NotRequired[str]
    opacity: NotRequired[float]
    # A CSS class for the page's style sheet (e.g. the last move's marks).
    cls: NotRequired[str]
    # A tooltip and the accessible name of the shape.
    title: NotRequired[str]
    # The game item this shape is (a scale, piece, tile, token or gem); unique.
    thing: NotRequired[str]


class Seat(TypedDict):
    """A player as the picture knows them: by engine seat (0-based, in moving order)."""

    colour: str  # what the rules call the player's pieces, e.g. "White"
    fill: str  # the colour drawn
    stroke: str
    score: str  # a short standing, e.g. "45 points"; "" when the game has none
    details: list[str]  # lines shown under the player, e.g. the reserve


class Picture(TypedDict):
    game: str
    viewbox: str  # "min-x min-y width height"
    width: float
    height: float
    shapes: list[Shape]
    title: str  # what the picture shows, in one sentence (the SVG's accessible name)
    seats: list[Seat]
    to_move: int | None  # 0-based engine seat, None once the game is over
    status: str  # e.g. "phase II: 2 moves left"; "" when there is nothing to add
    finished: bool
    winners: list[int]  # 0-based engine seats; empty while running or for a draw
    notes: list[str]  # lines shown under the board


def num(v: float) -> float:
    """Round a coordinate for the page (three decimals keep it sharp at any size)."""
    r = round(v, 3)
    return 0.0 if r == 0 else r


def pts(points: Iterable[Point]) -> list[Point]:
    return [(num(x), num(y)) for x, y in points]


def viewbox(x0: float, y0: float, x1: float, y1: float) -> tuple[str, float, float]:
    """The viewBox attribute of a picture spanning (x0, y0)..(x1, y1), its size."""
    w, h = x1 - x0, y1 - y0
    return f"{num(x0)} {num(y0)} {num(w)} {num(h)}", num(w), num(h)


def text(
    x: float,
    y: float,
    label: str,
    size: float,
    fill: str = "#1d2430",
    anchor: str = "middle",
    weight: str = "normal",
) -> Shape:
    return {
        "type": "text",
        "x": num(x),
        "y": num(y),
        "text": label,
        "size": num(size),
        "fill": fill,
        "anchor": anchor,
        "weight": weight,
    }


def ink_on(fill: str) -> str:
    """A readable text colour on a fill given as #rrggbb."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def outline_path(polygons: Iterable[list[Point]]) -> str:
    """A path of the outer edges of polygons that share edges: every edge drawn by two
    of them is inside the union and left out (used to draw merged spaces)."""
    count: dict[tuple[Point, Point], int] = {}
    for poly in polygons:
        p = pts(poly)
        for a, b in zip(p, p[1:] + p[:1], strict=True):
            key = (a, b) if a <= b else (b, a)
            count[key] = count.get(key, 0) + 1
    parts = [f"M{a[0]} {a[1]}L{b[0]} {b[1]}" for (a, b), n in sorted(count.items()) if n == 1]
    return "".join(parts)
