"""Reading a written move, the first steps every notation takes alike."""

from __future__ import annotations

from collections.abc import Callable


def move_text(text: object, error: Callable[[str], Exception]) -> str:
    """The move as written, without any blanks; raises `error(reason)` when it is not a
    string or is empty."""
    if not isinstance(text, str):
        raise error("a move must be a string")
    s = "".join(text.split())
    if not s:
        raise error("the move is empty")
    return s
