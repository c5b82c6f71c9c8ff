"""The demo data set of the quick start; grows with each capability."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser


def demo_load(*, organiser: AbstractBaseUser) -> str:
    return "Demo: nothing to load yet."
