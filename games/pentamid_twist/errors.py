"""The engine's own exceptions; each carries a reason a player understands."""

from __future__ import annotations

from games.engine_common.errors import EngineError


class TwistError(EngineError):
    """Base class: `reason` is a sentence for people, without the ply number."""


class NotationError(TwistError):
    """A move that cannot be read."""


class IllegalMove(TwistError):
    """A readable move that the rules do not allow in the given position."""


class RecordError(TwistError):
    """The input is not a game record at all (wrong shape, unsupported variant)."""
