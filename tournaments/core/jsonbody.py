"""JSON request bodies: nested at most MAX_DEPTH deep and holding only text that can be
stored (a lone surrogate such as "\ud800" is valid JSON but not UTF-8, and would fail deep
inside a field, the database or a log line with a 500). Used by the API's parser
(config/parsers.py) and by the pages that read JSON bodies themselves."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32  # our deepest document (a tournament export) is 6 levels deep


def check_document(data: Any, max_depth: int = MAX_DEPTH) -> None:
    """Raise ValueError naming the place of the first value nested too deep or of the
    first string that is not encodable text. Iterative: depth costs no recursion."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]  # the top is level 1
    while stack:
        value, where, depth = stack.pop()
        if depth > max_depth:
            raise ValueError(f"JSON nested deeper than {max_depth} levels at {where or 'top'}")
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, where)
                stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{where or 'a key'}: not valid text (a lone surrogate)") from None


def loads(raw: bytes | str) -> Any:
    """json.loads with the same limits; ValueError for anything refused."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    check_document(data)
    return data
