"""The base of every engine's own exceptions."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: `reason` is a sentence for people, without the ply number."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
