"""The Redis cache, failing open: Redis holds only what can be recomputed (standings
bodies, throttle counters), so when it is unreachable a read is a miss and a write is
dropped, with a logged warning, instead of a 500 for the request that touched it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
T = TypeVar("T")
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class _Failures:
    """How many cache calls failed open in this process."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def add(self) -> int:
        with self._lock:
            self.count += 1
            return self.count


failures = _Failures()


def _fail_open(call: Callable[[], T], default: T, what: str) -> T:
    try:
        return call()
    except UNREACHABLE as exc:
        n = failures.add()
        # Every failure is counted; the log gets the first and then one in a hundred.
        if n == 1 or n % 100 == 0:
            log.warning("cache unreachable (%s failed, %d so far): %s", what, n, exc)
        return default


class FailOpenRedisCache(RedisCache):
    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).get(key, default, version), default, "get"
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).get_many(keys, version), {}, "get_many"
        )

    def has_key(self, key: Any, version: Any = None) -> bool:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).has_key(key, version), False, "has_key"
        )

    def set(self, *args: Any, **kwargs: Any) -> None:
        _fail_open(lambda: super(FailOpenRedisCache, self).set(*args, **kwargs), None, "set")

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).set_many(*args, **kwargs), [], "set_many"
        )

    def add(self, *args: Any, **kwargs: Any) -> bool:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).add(*args, **kwargs), False, "add"
        )

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).touch(*args, **kwargs), False, "touch"
        )

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        return _fail_open(
            lambda: super(FailOpenRedisCache, self).delete(*args, **kwargs), False, "delete"
        )

    def delete_many(self, *args: Any, **kwargs: Any) -> None:
        _fail_open(
            lambda: super(FailOpenRedisCache, self).delete_many(*args, **kwargs),
            None,
            "delete_many",
        )
