"""The quick start (`config/bin/serve`): the demo loads on the embedded default, a second
load adds nothing, and the login it prints names the address actually served."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Game, Player, Tournament

pytestmark = [pytest.mark.embedded, pytest.mark.django_db]


def _counts() -> tuple[int, int, int]:
    return Player.objects.count(), Tournament.objects.count(), Game.objects.count()


def test_the_demo_loads_once_and_prints_the_address_it_is_served_on():
    first = StringIO()
    call_command("demo", address="0.0.0.0:8123", stdout=first)
    loaded = _counts()
    assert all(loaded), loaded
    assert "http://0.0.0.0:8123/admin/" in first.getvalue()
    assert "127.0.0.1:8000" not in first.getvalue()

    again = StringIO()
    call_command("demo", stdout=again)
    assert _counts() == loaded
    assert "http://127.0.0.1:8000/admin/" in again.getvalue()
