"""Parsing and checking the URLs of the database and of Redis at start.

A malformed DATABASE_URL or an unreachable REDIS_URL stops the process with one line
that names the variable, instead of a traceback on the first request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .env import ConfigError


def database_from_url(url: str, base_dir: Path) -> dict[str, Any]:
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "var" / "db.sqlite3",
            # Wait instead of failing at once when the dev server and the demo loader
            # write at the same moment.
            "OPTIONS": {"timeout": 20},
        }
    try:
        import dj_database_url

        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
            raise ValueError(f"unsupported scheme {parts.scheme!r} (use postgres:// or sqlite://)")
        if parts.scheme != "sqlite" and not parts.path.strip("/"):
            raise ValueError("no database name after the host")
        _ = parts.port  # raises ValueError on a non-numeric port
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL is malformed: {exc}") from None
    return config


def check_redis(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ConfigError(f"REDIS_URL is malformed: unsupported scheme {parts.scheme!r}")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except ValueError as exc:
        raise ConfigError(f"REDIS_URL is malformed: {exc}") from None
    except redis.RedisError as exc:
        raise ConfigError(f"REDIS_URL={url} is unreachable: {exc}") from None
