"""The engine's own exceptions; each carries a reason a player understands."""

from __future__ import annotations

from games.engine_common.errors import EngineError


class PentaCosmosError(EngineError):
    """Base class: `reason` is a sentence for people, without the ply number."""


class NotationError(PentaCosmosError):
    """A move that cannot be read."""


class IllegalMove(PentaCosmosError):
    """A readable move that the rules do not allow in the given position."""
