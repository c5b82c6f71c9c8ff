"""Fixtures shared by the API tests."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players


@pytest.fixture
def director() -> APIClient:
    """A director of tournament "cup" (club "kiel", 4 players), through the API."""
    user = UserFactory(username="td")
    club = ClubFactory(slug="kiel")
    club.organisers.add(user)
    tournament_with_players(4, club=club, slug="cup", name="Cup").directors.add(user)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    return api
