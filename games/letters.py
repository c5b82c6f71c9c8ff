"""The book's letters for the colours a player brought out first and second
(section 22, Table 4: "You can assign letters to the colour combination of the winning
pieces"). Rows are the second colour out, columns the first."""

from __future__ import annotations

from collections.abc import Sequence

COLOURS = ("w", "b", "r", "y", "g")  # white, blue, red, yellow, green (section 22 order)
_TABLE = (
    ("A", "B", "C", "D", "E"),  # second out: white
    ("F", "G", "H", "I/J", "K"),  # blue
    ("L", "M", "N", "O", "P"),  # red
    ("Q", "R", "S", "T", "U"),  # yellow
    ("V", "W", "X", "Y", "Z"),  # green
)


def colour_letter(colours_out: Sequence[str]) -> str:
    """The letter for a player's first two colours out; empty with fewer than two."""
    if len(colours_out) < 2:
        return ""
    first = COLOURS.index(colours_out[0][0].lower())
    second = COLOURS.index(colours_out[1][0].lower())
    return _TABLE[second][first]
