"""The seat-order term for games of three or more players (the book, sections 3 and 18).

Seats are listed in moving order, so seat ``k`` moves right after seat ``k - 1`` (its
"vorhand"; the seat after it is its "hinterhand"). Every player plays mainly against her
hinterhand, so "it is a disadvantage to play after a strong player and an advantage to
play before a weak player", and "a score won seated after a strong player must count
more". We model this as a shift of each player's effective strength in the pairwise
decomposition:

    offset_k = -strength * (rating of k's vorhand - mean rating of the table)

``strength`` is dimensionless (0 turns the term off), the offsets of a table add up to
zero, and they are computed from the ratings before the game. A player seated after a
strong vorhand is thus expected to score less, so the same score raises her rating more.
Two-player and team games get no offset: with two sides the "vorhand" is the opponent,
and the term would only rescale the rating difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import RatedGame


def applies(game: RatedGame) -> bool:
    """Whether the seat term is defined for this game."""
    return game.teams is None and len(game.seats) >= 3


def seat_offsets(ratings: Sequence[float], strength: float) -> list[float]:
    """Offset per seat, in the scale of ``ratings`` (seats in moving order)."""
    count = len(ratings)
    if strength == 0.0 or count < 3:
        return [0.0] * count
    mean = sum(ratings) / count
    return [-strength * (ratings[seat - 1] - mean) for seat in range(count)]
