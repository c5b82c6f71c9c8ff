"""Seeding offers (issue 42, "Why" 10): the run page offered an event still running as
"Seed by the final standings of"; it has no final standings yet. Only a finished event
(its last round closed, or the evening closed) is offered, on the page and in the API,
and the service refuses a running one, naming the field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tests.tournaments.test_seeding import play_round
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.visibility import seed_sources
from tournaments.desk.services.entries import entries_reseed_by_rating, entry_add
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def events():
    finished = tournament_with_players(4, slug="finished", name="Finished", rounds_planned=1)
    play_round(finished)
    running = tournament_with_players(4, slug="running", name="Running", rounds_planned=3)
    running.club = finished.club
    running.save(update_fields=["club"])
    play_round(running)
    tonight = TournamentFactory(club=finished.club, slug="tonight", name="Tonight")
    entry_add(tournament=tonight, name="P01", by=BY)
    return finished, running, tonight


def test_only_finished_events_are_offered_as_final_standings(events, client):
    finished, running, tonight = events
    assert running.rounds.filter(status="closed").exists()
    assert Tournament.objects.get(pk=running.pk).status == Tournament.Status.RUNNING
    assert seed_sources(tonight) == [finished]
    user = UserFactory()
    tonight.directors.add(user)
    client.force_login(user)
    page = client.get("/t/tonight/manage/").content.decode()
    assert "Finished" in page
    assert ">Running" not in page


def test_the_service_and_the_api_refuse_a_running_event(events):
    finished, running, tonight = events
    with pytest.raises(ServiceError) as refused:
        entries_reseed_by_rating(tournament=tonight, by=BY, source=running)
    assert refused.value.field == "event"
    user = UserFactory()
    tonight.directors.add(user)
    api = APIClient()
    api.force_authenticate(user)
    answer = api.post(
        "/api/v1/tournaments/tonight/entries/reseed/", {"event": "running"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "event"
