"""Board pictures of the family's games: an engine state turned into plain data.

Each module here (`pantarei`, `pentamid_twist`, `pent_up`, `pentacosmos`) has
`picture(state, last=None) -> Picture`: a list of shapes with coordinates, colours and
labels, drawn in order, and what the page shows beside the board. Nothing here knows
about Django or SVG markup, so the drawing is tested without a browser; the viewer
(games/family_views.py, templates/games/family_board.html) only writes the shapes out.

Every piece, tile, scale or token of the position is exactly one shape with a `thing`
key that names it; decoration (shadows, labels, board lines) has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .shapes import Picture, Seat, Shape

PictureFn = Callable[[Any, "str | None"], Picture]


def picture_for(game: str) -> PictureFn | None:
    """The picture function of a game of the family, None for an unknown name."""
    if game == "pantarei":
        from . import pantarei

        return pantarei.picture
    if game == "pentamid_twist":
        from . import pentamid_twist

        return pentamid_twist.picture
    if game == "pent_up":
        from . import pent_up

        return pent_up.picture
    if game == "pentacosmos":
        from . import pentacosmos

        return pentacosmos.picture
    return None


__all__ = ["Picture", "PictureFn", "Seat", "Shape", "picture_for"]
