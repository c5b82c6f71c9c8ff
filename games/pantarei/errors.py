"""The engine's own exceptions; each carries a reason a player understands."""

from __future__ import annotations


class PantareiError(ValueError):
    """Base class: `reason` is a sentence for people, without the ply number."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotationError(PantareiError):
    """A move or scale that cannot be read."""


class IllegalMove(PantareiError):
    """A readable move that the rules do not allow in the given position."""


class RecordError(PantareiError):
    """The input is not a game record at all (wrong shape, impossible setup)."""
