"""Parsing and checking the URLs of the database and of Redis at start.

A malformed DATABASE_URL or an unreachable REDIS_URL stops the process with one line
that names the variable, instead of a traceback on the first request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
import redis

from .env import ConfigError

# Wait instead of failing at once when two writers meet (the dev server and the demo
# loader, two organisers). IMMEDIATE: a transaction takes the write lock when it starts,
# so two edits of one game queue as on PostgreSQL (one wins, the other then sees the new
# version: a conflict) instead of "database is locked" when a reader tries to become a
# writer, as SQLite's default deferred transactions do.
# WAL (journal_mode, kept in the file once set): readers never wait for the writer, nor
# the writer for readers: the projector's and sixty phones' polls go on while a result is
# saved, on the venue's laptop (config/bin/venue) and the quick start alike. synchronous
# stays FULL (SQLite's default, said here so that nobody lowers it for speed): each commit
# is on the disk when the phone is told "saved", so a power cut loses no acknowledged
# result; NORMAL could lose the last ones, and an evening's few writes a second do not
# need it.
SQLITE_OPTIONS: dict[str, Any] = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
}


def database_from_url(url: str, base_dir: Path) -> dict[str, Any]:
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "var" / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    try:
        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
            raise ValueError(f"unsupported scheme {parts.scheme!r} (use postgres:// or sqlite://)")
        if parts.scheme != "sqlite" and not parts.path.strip("/"):
            raise ValueError("no database name after the host")
        _ = parts.port  # raises ValueError on a non-numeric port
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL is malformed: {exc}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


def check_redis(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ConfigError(f"REDIS_URL is malformed: unsupported scheme {parts.scheme!r}")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except ValueError as exc:
        raise ConfigError(f"REDIS_URL is malformed: {exc}") from None
    except redis.RedisError as exc:
        raise ConfigError(f"REDIS_URL={masked(url)} is unreachable: {exc}") from None


def masked(url: str) -> str:
    """The URL as it may be printed: its password replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return parts._replace(netloc=f"{user}:***@{host}{port}").geturl()
