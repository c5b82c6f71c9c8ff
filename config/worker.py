"""Entry point for `celery -A config.worker worker`: loads the settings first so a
configuration mistake stops the worker with one clear line instead of a traceback."""

from __future__ import annotations

import os

import django

from .startup import or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
or_exit(django.setup)

from .celery import app  # noqa: E402  (after setup, on purpose)

__all__ = ("app",)
