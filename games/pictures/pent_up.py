"""The Pent-Up picture: the placed pentominoes seen from above, on the part of the
unbounded grid they cover.

Tiles are drawn lowest level first, so a tile lies over those it rests on; each one is
outlined, throws a shadow that grows with its level when it lies above the table, and
carries a badge with its level and letter. The grid's x and y
numbers (the notation's, x east and y north) run along the top and the left.
"""

from __future__ import annotations

from games.pent_up.pieces import COLOURS, PIECES, Cell
from games.pent_up.result import result
from games.pent_up.rules import State, Tile

from .shapes import Picture, Point, Seat, Shape, ink_on, num, pts, text, viewbox

FILLS = {"white": "#f4f1e8", "black": "#2b2b30", "red": "#c8372d", "blue": "#2f63b5"}
MARGIN = 1.2  # grid squares shown around the tiles


def outline(cells: tuple[Cell, ...]) -> list[Cell]:
    """The corners of a tile's outline in grid coordinates (y north), anticlockwise.
    A pentomino has no holes and no two of its squares meet at a corner only, so the
    outer edges form one loop."""
    edges: dict[Cell, Cell] = {}
    own = set(cells)
    for x, y in cells:
        corners = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
        neighbour = [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
        for k in range(4):
            if neighbour[k] not in own:
                edges[corners[k]] = corners[(k + 1) % 4]
    start = min(edges)
    loop = [start]
    nxt = edges[start]
    while nxt != start:
        loop.append(nxt)
        nxt = edges[nxt]
    # Drop the corners in the middle of straight runs.
    out = []
    n = len(loop)
    for i, (x, y) in enumerate(loop):
        (px, py), (qx, qy) = loop[i - 1], loop[(i + 1) % n]
        if (x - px) * (qy - y) != (y - py) * (qx - x):
            out.append((x, y))
    return out


def inner_edges(cells: tuple[Cell, ...]) -> list[tuple[Cell, Cell]]:
    """The edges between two squares of the same tile (grid coordinates)."""
    own = set(cells)
    out = []
    for x, y in cells:
        if (x + 1, y) in own:
            out.append(((x + 1, y), (x + 1, y + 1)))
        if (x, y + 1) in own:
            out.append(((x, y + 1), (x + 1, y + 1)))
    return out


def _label_cell(cells: tuple[Cell, ...]) -> Cell:
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c))


def _tile(tile: Tile, index: int, flip_y: float, last: bool) -> list[Shape]:
    colour = COLOURS[tile.seat - 1]
    fill = FILLS[colour]

    def to_svg(c: Cell) -> Point:
        return float(c[0]), flip_y - c[1]

    ring = pts(to_svg(c) for c in outline(tile.cells))
    shapes: list[Shape] = []
    if tile.level > 1:
        lift = 0.07 + 0.03 * min(tile.level, 6)
        shapes.append(
            {
                "type": "polygon",
                "points": pts((x + lift, y + lift) for x, y in ring),
                "fill": "#000000",
                "opacity": 0.3,
            }
        )
    name = f"{colour} {tile.piece} on level {tile.level} (tile {index + 1} placed)"
    shapes.append(
        {
            "type": "polygon",
            "points": ring,
            "fill": fill,
            # A light edge on the black tiles, so two of them side by side stay apart.
            "stroke": "#9a9aa8" if colour == "black" else "#15151a",
            "stroke_width": 0.07,
            "title": name,
            "thing": f"tile {tile.seat}.{tile.piece}",
        }
    )
    inner = "".join(
        f"M{num(to_svg(a)[0])} {num(to_svg(a)[1])}L{num(to_svg(b)[0])} {num(to_svg(b)[1])}"
        for a, b in inner_edges(tile.cells)
    )
    shapes.append(
        {
            "type": "path",
            "d": inner,
            "fill": "none",
            "stroke": ink_on(fill),
            "stroke_width": 0.025,
            "opacity": 0.35,
        }
    )
    if last:
        shapes.append(
            {
                "type": "polygon",
                "points": ring,
                "fill": "none",
                "stroke": "#f1c40f",
                "stroke_width": 0.14,
                "dash": "0.25 0.12",
                "cls": "fb-last",
            }
        )
    lx, ly = to_svg(_label_cell(tile.cells))
    cx, cy = lx + 0.5, ly - 0.5
    ink = ink_on(fill)
    shapes.append(
        {
            "type": "circle",
            "x": num(cx),
            "y": num(cy),
            "r": 0.36,
            "fill": ink,
            "opacity": 0.85,
        }
    )
    shapes.append(text(cx, cy + 0.14, str(tile.level), 0.42, fill=fill, weight="bold"))
    shapes.append(text(cx + 0.36, cy - 0.2, tile.piece, 0.28, fill=ink, anchor="start"))
    return shapes


def picture(state: State, last: str | None = None) -> Picture:
    """The table from above; the last placed tile is outlined (`last` is not needed:
    the state keeps the tiles in the order they were placed)."""
    cells = [c for t in state.tiles for c in t.cells]
    if cells:
        x0, x1 = min(x for x, _ in cells), max(x for x, _ in cells) + 1
        y0, y1 = min(y for _, y in cells), max(y for _, y in cells) + 1
    else:
        x0, x1, y0, y1 = -2, 3, -2, 3
    # SVG y runs down: grid y = y1 is the top edge.
    flip_y = float(y1)
    gx0, gx1 = x0 - MARGIN, x1 + MARGIN
    gy0, gy1 = flip_y - y1 - MARGIN, flip_y - y0 + MARGIN
    shapes: list[Shape] = [
        {
            "type": "rect",
            "x": num(gx0),
            "y": num(gy0),
            "w": num(gx1 - gx0),
            "h": num(gy1 - gy0),
            "fill": "#e7ede0",
        }
    ]
    grid = "".join(f"M{x} {num(gy0)}L{x} {num(gy1)}" for x in range(x0 - 1, x1 + 2))
    grid += "".join(f"M{num(gx0)} {y}L{num(gx1)} {y}" for y in range(-1, y1 - y0 + 2))
    shapes.append(
        {"type": "path", "d": grid, "fill": "none", "stroke": "#b9c4ab", "stroke_width": 0.03}
    )
    step = 1 if x1 - x0 <= 16 else 2
    for x in range(x0, x1, step):
        shapes.append(text(x + 0.5, gy0 - 0.15, str(x), 0.34, fill="#5b6575"))
    step = 1 if y1 - y0 <= 16 else 2
    for y in range(y0, y1, step):
        shapes.append(
            text(gx0 - 0.15, flip_y - y - 0.38, str(y), 0.34, fill="#5b6575", anchor="end")
        )
    order = sorted(range(len(state.tiles)), key=lambda i: (state.tiles[i].level, i))
    for i in order:
        shapes += _tile(state.tiles[i], i, flip_y, i == len(state.tiles) - 1)
    if not cells:
        shapes.append(text((gx0 + gx1) / 2, (gy0 + gy1) / 2, "No tile yet", 0.5, "#5b6575"))
    box, w, h = viewbox(gx0 - 1.0, gy0 - 0.7, gx1 + 0.2, gy1 + 0.2)
    res = result(state)
    seats: list[Seat] = []
    for seat in range(state.players):
        colour = COLOURS[seat]
        counts = res.levels[seat] if res.levels else ()
        top = [(lv + 1, n) for lv, n in enumerate(counts) if n]
        score = ", ".join(f"{n} on level {lv}" for lv, n in reversed(top)) or "no tiles yet"
        hand = state.hands[seat]
        details = [f"to place: {' '.join(hand)}" if hand else "all 12 tiles placed"]
        if state.players == 4:
            details.append(f"pair with {COLOURS[(seat + 2) % 4]}")
        seats.append(
            {
                "colour": colour.capitalize(),
                "fill": FILLS[colour],
                "stroke": "#15151a",
                "score": score,
                "details": details,
            }
        )
    top_level = max((t.level for t in state.tiles), default=0)
    notes = ["The badge on a tile is its level (1 = the table) and its letter."]
    if state.variant == "misere":
        notes.append("Misère: the most tiles on the lowest level win.")
    return {
        "game": "pent_up",
        "viewbox": box,
        "width": w,
        "height": h,
        "shapes": shapes,
        "title": (
            f"{len(state.tiles)} of {len(PIECES) * state.players} tiles placed, "
            f"highest level {top_level}"
        ),
        "seats": seats,
        "to_move": None if state.to_move is None else state.to_move - 1,
        "status": "",
        "finished": state.finished,
        "winners": [s - 1 for s in res.winners],
        "notes": notes,
    }
