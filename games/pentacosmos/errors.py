"""The engine's own exceptions; each carries a reason a player understands."""

from __future__ import annotations


class PentaCosmosError(ValueError):
    """Base class: `reason` is a sentence for people, without the ply number."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotationError(PentaCosmosError):
    """A move that cannot be read."""


class IllegalMove(PentaCosmosError):
    """A readable move that the rules do not allow in the given position."""
