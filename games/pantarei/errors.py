"""The engine's own exceptions; each carries a reason a player understands."""

from __future__ import annotations

from games.engine_common.errors import EngineError


class PantareiError(EngineError):
    """Base class: `reason` is a sentence for people, without the ply number."""


class NotationError(PantareiError):
    """A move or scale that cannot be read."""


class IllegalMove(PantareiError):
    """A readable move that the rules do not allow in the given position."""


class RecordError(PantareiError):
    """The input is not a game record at all (wrong shape, impossible setup)."""
