"""The PentaCosmos picture: the board of pentagons as board.json draws it, the gem
spaces with the gems still on them, and the tokens.

board.json gives every space's corners (lattice units, y north), so the pentagons are
drawn exactly as stored. A gem space is not a space of the board: it is drawn from the
lattice cells our reconstruction merged for it (`cells`, through `cairo.corners`), a
Crystal as a small square at its lattice point, and, for a board without that data,
as a disc in the middle of its ring. A gem still on the board is drawn with its value;
a captured one leaves a disc in the colour of the player who took it.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.pentacosmos import parse_move
from games.pentacosmos.board import BOARD, GEMS
from games.pentacosmos.cairo import corners as cell_corners
from games.pentacosmos.errors import PentaCosmosError
from games.pentacosmos.result import result
from games.pentacosmos.rules import COLOURS, Position, State

from .shapes import Picture, Point, Seat, Shape, ink_on, num, outline_path, pts, text, viewbox

FILLS = {"red": "#d0312d", "blue": "#1f5fbf", "green": "#2e9b4c", "yellow": "#f1c40f"}
SPACE, SPACE_EDGE, COSMOS = "#eef0f7", "#27305a", "#1b2340"
# The gem space's ground, the gem's colour (rules: black, white, blue, clear).
GROUND = {"sun": "#f3c74f", "moon": "#b9c6e0", "star": "#7fb0ea", "crystal": "#d8cdf0"}
GEM = {"sun": "#1a1a1a", "moon": "#ffffff", "star": "#1f5fbf", "crystal": "#e8f6ff"}
TOKEN_R = 0.17


@lru_cache(maxsize=1)
def _board_data() -> dict[str, Any]:
    path = Path(__file__).resolve().parent.parent / "pentacosmos" / "board.json"
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@lru_cache(maxsize=1)
def _height() -> float:
    top = max(y for poly in BOARD.corners[1:] for _, y in poly)
    return float(top)


def _flip(points: Any) -> list[Point]:
    h = _height()
    return pts((float(x), h - float(y)) for x, y in points)


def centroid(poly: list[Point]) -> Point:
    """The area centroid of a simple polygon (the middle of a cut border space too)."""
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a) < 1e-9:
        return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)
    return cx / (3 * a), cy / (3 * a)


@lru_cache(maxsize=1)
def space_polygons() -> tuple[list[Point], ...]:
    """Per space 1..N its polygon on screen (index 0 unused)."""
    return ([],) + tuple(_flip(poly) for poly in BOARD.corners[1:])


@lru_cache(maxsize=1)
def gem_regions() -> tuple[tuple[list[list[Point]], Point, float], ...]:
    """Per gem its polygons, centre and the room for its icon."""
    stored = {g["name"]: g for g in _board_data().get("gems", [])}
    polys = space_polygons()
    out = []
    for gem in GEMS:
        data = stored.get(gem.name, {})
        cells = data.get("cells") or []
        ring_centre = centroid([centroid(polys[s]) for s in gem.ring])
        if cells:
            regions = [_flip(cell_corners((c[0], int(c[1]), int(c[2])))) for c in cells]
            area = [p for r in regions for p in r]
            centre = (sum(p[0] for p in area) / len(area), sum(p[1] for p in area) / len(area))
            out.append((regions, centre, 0.34 if len(cells) > 1 else 0.2))
        elif gem.kind == "crystal" and len(data.get("anchor", [])) == 2:
            ((x, y),) = _flip([data["anchor"]])
            d = 0.2
            out.append(([[(x, y - d), (x + d, y), (x, y + d), (x - d, y)]], (x, y), 0.11))
        else:
            x, y = ring_centre
            disc = [
                (x + 0.3 * math.cos(k * math.pi / 4), y + 0.3 * math.sin(k * math.pi / 4))
                for k in range(8)
            ]
            out.append(([pts(disc)], ring_centre, 0.2))
    return tuple(out)


def _marked(last: str | None) -> tuple[int, ...]:
    if not last:
        return ()
    try:
        move = parse_move(last)
    except PentaCosmosError:
        return ()
    return tuple(s for s in move.path if 1 <= s <= BOARD.size)


def _gem_icon(kind: str, x: float, y: float, r: float) -> list[Shape]:
    """A cut gem: an octagon with a lighter table facet."""
    ring = [
        (
            x + r * math.cos(math.pi / 8 + k * math.pi / 4),
            y + r * math.sin(math.pi / 8 + k * math.pi / 4),
        )
        for k in range(8)
    ]
    table = [(x + (px - x) * 0.5, y + (py - y) * 0.5 - r * 0.08) for px, py in ring]
    return [
        {
            "type": "polygon",
            "points": pts(ring),
            "fill": GEM[kind],
            "stroke": "#15151a" if kind != "sun" else "#f3c74f",
            "stroke_width": 0.03,
        },
        {"type": "polygon", "points": pts(table), "fill": "#ffffff", "opacity": 0.35},
    ]


def _gems(state: State) -> list[Shape]:
    shapes: list[Shape] = []
    for k, gem in enumerate(GEMS):
        regions, (x, y), r = gem_regions()[k]
        taker = state.gems[k]
        for poly in regions:
            shapes.append(
                {
                    "type": "polygon",
                    "points": poly,
                    "fill": GROUND[gem.kind],
                    "stroke": GROUND[gem.kind],
                    "stroke_width": 0.03,
                    "opacity": 0.45 if taker else 1.0,
                }
            )
        shapes.append(
            {
                "type": "path",
                "d": outline_path(regions),
                "fill": "none",
                "stroke": SPACE_EDGE,
                "stroke_width": 0.05,
            }
        )
        label = f"{gem.kind.capitalize()} {gem.name[len(gem.kind) :]} ({gem.value} points)"
        if taker:
            colour = COLOURS[taker - 1]
            shapes.append(
                {
                    "type": "circle",
                    "x": num(x),
                    "y": num(y),
                    "r": num(r * 0.8),
                    "fill": FILLS[colour],
                    "stroke": "#ffffff",
                    "stroke_width": 0.04,
                    "title": f"{label}: taken by {colour}",
                    "thing": f"gem {gem.name}",
                }
            )
            shapes.append(
                text(x, y + r * 0.3, str(gem.value), r * 0.9, ink_on(FILLS[colour]), weight="bold")
            )
            continue
        icon = _gem_icon(gem.kind, x, y, r)
        icon[0]["title"] = f"{label}: still on the board"
        icon[0]["thing"] = f"gem {gem.name}"
        shapes += icon
        if r >= 0.3:
            shapes.append(text(x, y + r + 0.24, str(gem.value), 0.26, "#1d2430", weight="bold"))
    return shapes


def picture(state: State, last: str | None = None) -> Picture:
    """The board, gems and tokens; the spaces of the last move (`last`) are outlined."""
    polys = space_polygons()
    h = _height()
    width = max(x for poly in polys[1:] for x, _ in poly)
    shapes: list[Shape] = [
        {
            "type": "rect",
            "x": -0.25,
            "y": -0.25,
            "w": num(width + 0.5),
            "h": num(h + 0.5),
            "rx": 0.2,
            "fill": COSMOS,
        }
    ]
    for s in range(1, BOARD.size + 1):
        shapes.append(
            {
                "type": "polygon",
                "points": polys[s],
                "fill": SPACE,
                "stroke": SPACE_EDGE,
                "stroke_width": 0.035,
                "title": f"space {s}",
            }
        )
    shapes += _gems(state)
    for s in _marked(last):
        shapes.append(
            {
                "type": "polygon",
                "points": polys[s],
                "fill": "#fff3c4",
                "stroke": "#b08a00",
                "stroke_width": 0.06,
                "cls": "fb-last",
            }
        )
    for s in range(1, BOARD.size + 1):
        x, y = centroid(polys[s])
        seat = state.board[s]
        if seat:
            colour = COLOURS[seat - 1]
            shapes.append(
                {
                    "type": "circle",
                    "x": num(x),
                    "y": num(y),
                    "r": TOKEN_R,
                    "fill": FILLS[colour],
                    "stroke": "#15151a",
                    "stroke_width": 0.03,
                    "title": f"{colour} token on space {s}",
                    "thing": f"token {s}",
                }
            )
            shapes.append(text(x, y + 0.06, str(s), 0.16, ink_on(FILLS[colour])))
        else:
            shapes.append(text(x, y + 0.06, str(s), 0.16, "#6b7390"))
    box, w, hh = viewbox(-0.3, -0.3, width + 0.3, h + 0.3)
    game = Position.from_state(state)
    points = game.points()
    res = result(state)
    seats: list[Seat] = []
    for seat in range(state.players):
        colour = COLOURS[seat]
        taken = [g for g, t in zip(GEMS, state.gems, strict=True) if t == seat + 1]
        kinds = {kind: sum(1 for g in taken if g.kind == kind) for kind in GROUND}
        gems = ", ".join(f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in kinds.items() if n)
        details = [f"gems: {gems}" if gems else "no gems yet"]
        if state.placed[seat] < state.tokens:
            details.append(f"{state.placed[seat]} of {state.tokens} tokens placed")
        if game.teams:
            details.append(f"team with {COLOURS[(seat + 2) % 4]}")
        seats.append(
            {
                "colour": colour.capitalize(),
                "fill": FILLS[colour],
                "stroke": "#15151a",
                "score": f"{points[seat]} points",
                "details": details,
            }
        )
    if state.finished:
        status = ""
    elif game.phase == 1:
        status = "Phase I: placing tokens."
    elif game.awaiting_coin:
        status = "Phase II: the coin flip of this turn comes first."
    else:
        left = state.moves_left
        status = f"Phase II: {left} move{'s' if left != 1 else ''} left this turn."
    remaining = sum(1 for t in state.gems if not t)
    return {
        "game": "pentacosmos",
        "viewbox": box,
        "width": w,
        "height": hh,
        "shapes": shapes,
        "title": (
            f"The board of {BOARD.size} spaces, {sum(1 for t in state.board[1:] if t)} "
            f"tokens on it, {remaining} of {len(GEMS)} gems left"
        ),
        "seats": seats,
        "to_move": None if state.to_move is None else state.to_move - 1,
        "status": status,
        "finished": state.finished,
        "winners": [s - 1 for s in res.winners],
        "notes": [
            "Our reconstruction of the board (docs/rules-pentacosmos.md). "
            "Gems: Sun 10, Moon 8, Star 5, Crystal 4 points."
        ],
    }
