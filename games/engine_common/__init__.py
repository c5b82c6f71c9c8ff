"""What the game engines share: the base of their exceptions, the replay result and its
JSON form, record checking, random playouts and the `replay|moves` command line.

Django-free, like the engines that use it.
"""

from __future__ import annotations

from .errors import EngineError
from .replay import (
    RecordReader,
    ReplayError,
    ReplayResultBase,
    StateReplayResult,
    first_error,
    started,
)

__all__ = [
    "EngineError",
    "RecordReader",
    "ReplayError",
    "ReplayResultBase",
    "StateReplayResult",
    "first_error",
    "started",
]
