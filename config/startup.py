"""Turn a configuration mistake into one line on stderr and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from .env import ConfigError

T = TypeVar("T")


def or_exit(load: Callable[[], T]) -> T:
    try:
        return load()
    except ConfigError as exc:
        print(f"agon: configuration error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
