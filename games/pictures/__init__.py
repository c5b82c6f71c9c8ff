"""Board pictures of the family's games: an engine state turned into plain data.

Pentagame's module (`pentagame`) gives the board's geometry and a position with its
legal moves for the recording board. Each other module (`pantarei`, `pentamid_twist`,
`pent_up`, `pentacosmos`) has
`picture(state, last=None) -> Picture`: a list of shapes with coordinates, colours and
labels, drawn in order, and what the page shows beside the board. A game's Ruleset
(games/rulesets.py) names its picture function. Nothing here knows
about Django or SVG markup, so the drawing is tested without a browser; the viewers
(tournaments/results/views/family.py, tournaments/results/templates/games/family_board.html; for Pentagame
tournaments/results/views/board.py and tournaments/results/static/agon/board.js) only write the shapes out.

Every piece, tile, scale or token of the position is exactly one shape with a `thing`
key that names it; decoration (shadows, labels, board lines) has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .shapes import Picture, Seat, Shape

PictureFn = Callable[[Any, "str | None"], Picture]


__all__ = ["Picture", "PictureFn", "Seat", "Shape"]
