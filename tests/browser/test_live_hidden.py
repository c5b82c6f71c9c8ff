"""A live page whose tournament is unpublished while it is open (issue 41, finding 4):
its socket is closed with 4403 and the page stops following (no reconnecting, no
polling), on the production-style server (uvicorn serving config/asgi.py, Redis)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_update
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser


def live_state(browser: Any) -> str | None:
    return browser.execute_script("return document.documentElement.dataset.live")


def test_a_projector_stops_following_once_its_tournament_is_unpublished(browser, wait, asgi_server):
    tournament = tournament_with_players(3, published=True)
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    director = UserFactory()
    tournament.directors.add(director)
    browser.get(asgi_server.url + reverse("projector", args=[tournament.slug]))
    wait(lambda b: live_state(b) == "socket", 15)

    tournament_update(tournament=tournament, by=Actor.director(director), published=False)
    wait(lambda b: live_state(b) == "hidden", 5)
    # A page that tried again would be refused (403) and fall back to polling ("poll").
    time.sleep(3)
    assert live_state(browser) == "hidden"
