"""Reading configuration from the environment, with one clear line per mistake.

Every variable is listed, with its default, in `.env.example`.
"""

from __future__ import annotations

import os


class ConfigError(Exception):
    """A variable is missing or malformed; the message names it.

    Deliberately not ImproperlyConfigured: Django's command runner swallows that while
    it looks for settings, and we want one clear line at start, not a traceback.
    """


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean; use true or false")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a whole number") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]
