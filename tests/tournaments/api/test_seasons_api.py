"""Seasons in the API (issue 42, "Why" 4: "Seasons have no API"): create, change,
delete, attach and detach events, standings and statistics, through the services the
season pages use; only the club's organisers write; a refusal is a 400 naming the field
and changes nothing; anyone reads a season, as its public page."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_create
from tournaments.models import Club, Game, Season, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.seasons import season_standings_of

pytestmark = pytest.mark.django_db
BY = Actor.command()
START = datetime.date(2026, 4, 1)
SPRING = {"name": "Spring", "starts_on": "2026-04-01", "ends_on": "2026-06-30"}


@pytest.fixture
def club() -> Club:
    return ClubFactory(slug="kiel")


@pytest.fixture
def organiser(club) -> APIClient:
    user = UserFactory(username="org")
    club.organisers.add(user)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    return api


@pytest.fixture
def stranger() -> APIClient:
    """Signed in, an organiser of another club."""
    user = UserFactory(username="other")
    ClubFactory(slug="elsewhere").organisers.add(user)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    return api


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient(raise_request_exception=False)


def played_event(club: Club, name: str, day: int, players: list[str]) -> Tournament:
    """A published event of the club, one round played and closed (the first seat wins
    3:1), in no season yet."""
    staff = Actor.director(UserFactory(username=f"staff-{name}", is_staff=True))
    tournament = tournament_create(
        club=club, name=name, by=staff, date=START + datetime.timedelta(days=day), published=True
    )
    for player in players:
        entry_add(tournament=tournament, name=player, by=BY)
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1], by=BY)
    round_close(round=round_, by=BY)
    return tournament


def error(response) -> dict[str, object]:
    assert set(response.json()) >= {"error"}, response.json()
    return response.json()["error"]


URL = "/api/v1/clubs/kiel/seasons/"


def test_an_organiser_creates_reads_changes_and_deletes_a_season(organiser, club):
    made = organiser.post(URL, {**SPRING, "best_of": 3, "participation_points": "2"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] == "spring"
    assert made.json()["best_of"] == 3
    season = Season.objects.get(club=club, slug="spring")
    assert float(season.participation_points) == 2.0

    listed = organiser.get(URL)
    assert listed.status_code == 200
    assert [s["slug"] for s in listed.json()["results"]] == ["spring"]

    changed = organiser.patch(
        URL + "spring/", {"min_events": 2, "name": "Spring 26"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["slug"] == "spring-26"
    assert Season.objects.get(pk=season.pk).min_events == 2

    event = played_event(club, "Evening 1", 7, ["Anna", "Ben"])
    organiser.post(URL + "spring-26/events/", {"event": event.slug}, format="json")
    gone = organiser.delete(URL + "spring-26/")
    assert gone.status_code == 204
    assert not Season.objects.filter(pk=season.pk).exists()
    # Its events stay, in no season.
    assert Tournament.objects.get(pk=event.pk).season is None


def test_events_attach_and_detach_and_the_standings_follow(organiser, anonymous, club):
    organiser.post(URL, SPRING, format="json")
    one = played_event(club, "Evening 1", 7, ["Anna", "Ben"])
    two = played_event(club, "Evening 2", 14, ["Anna", "Cleo"])
    for event in (one, two):
        attached = organiser.post(URL + "spring/events/", {"event": event.slug}, format="json")
        assert attached.status_code == 200, attached.json()
    assert attached.json()["events"] == [one.slug, two.slug]
    assert Tournament.objects.get(pk=two.pk).season.slug == "spring"

    # Read without a login, as the public season page.
    standings = anonymous.get(URL + "spring/standings/")
    assert standings.status_code == 200
    body = standings.json()
    season = Season.objects.get(slug="spring")
    assert body == {
        "season": "spring",
        "name": "Spring",
        **season_standings_of(season=season).as_json(),
    }
    assert {r["name"] for r in body["rows"]} == {"Anna", "Ben", "Cleo"}

    detached = organiser.delete(URL + f"spring/events/{one.slug}/")
    assert detached.status_code == 200, detached.json()
    assert detached.json()["events"] == [two.slug]
    assert Tournament.objects.get(pk=one.pk).season is None
    names = {r["name"] for r in anonymous.get(URL + "spring/standings/").json()["rows"]}
    assert names == {"Anna", "Cleo"}


def test_the_statistics_answer_the_statistics_pages_json(organiser, anonymous, club, client):
    organiser.post(URL, SPRING, format="json")
    event = played_event(club, "Evening 1", 7, ["Anna", "Ben"])
    organiser.post(URL + "spring/events/", {"event": event.slug}, format="json")
    api = anonymous.get(URL + "spring/statistics/")
    page = client.get("/clubs/kiel/seasons/spring/statistics/?format=json")
    assert api.status_code == 200
    assert api.json() == page.json()


def test_anyone_reads_a_season(anonymous, organiser):
    organiser.post(URL, SPRING, format="json")
    assert anonymous.get(URL).status_code == 200
    detail = anonymous.get(URL + "spring/")
    assert detail.status_code == 200
    assert detail.json()["name"] == "Spring"


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_only_the_clubs_organisers_write_and_nothing_changes_otherwise(
    who, request, organiser, club
):
    organiser.post(URL, SPRING, format="json")
    event = played_event(club, "Evening 1", 7, ["Anna", "Ben"])
    api = request.getfixturevalue(who)
    code = "not_authenticated" if who == "anonymous" else "permission_denied"
    attempts = [
        api.post(URL, {**SPRING, "name": "Summer"}, format="json"),
        api.patch(URL + "spring/", {"min_events": 3}, format="json"),
        api.post(URL + "spring/events/", {"event": event.slug}, format="json"),
        api.delete(URL + f"spring/events/{event.slug}/"),
        api.delete(URL + "spring/"),
    ]
    for response in attempts:
        assert response.status_code in (401, 403), response.content
        assert error(response)["code"] == code
    season = Season.objects.get(club=club)
    assert (season.name, season.min_events) == ("Spring", 1)
    assert Season.objects.count() == 1
    assert Tournament.objects.get(pk=event.pk).season is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"starts_on": "2026-04-01", "ends_on": "2026-06-30"}, "name"),
        ({**SPRING, "starts_on": "first of April"}, "starts_on"),
        ({**SPRING, "ends_on": "2026-03-01"}, "ends_on"),
        ({**SPRING, "best_of": 0}, "best_of"),
        ({**SPRING, "best_of": "many"}, "best_of"),
        ({**SPRING, "min_events": 2, "best_of": 1}, "best_of"),
        ({**SPRING, "participation_points": "-1"}, "participation_points"),
        ({**SPRING, "participation_points": "lots"}, "participation_points"),
        ({**SPRING, "slug": "Not A Slug"}, "slug"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_creates_nothing(organiser, body, field):
    response = organiser.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert error(response)["field"] == field
    assert error(response)["code"] == "invalid"
    assert not Season.objects.exists()


def test_a_second_season_of_the_same_name_is_a_409(organiser):
    assert organiser.post(URL, SPRING, format="json").status_code == 201
    again = organiser.post(URL, SPRING, format="json")
    assert again.status_code == 409
    assert error(again)["field"] == "name"


def test_bad_changes_and_events_are_refused_naming_the_field(organiser, club):
    organiser.post(URL, SPRING, format="json")
    refused = organiser.patch(URL + "spring/", {"min_events": 0}, format="json")
    assert refused.status_code == 400 and error(refused)["field"] == "min_events"
    assert Season.objects.get(slug="spring").min_events == 1

    # No such event, another club's event, an event outside the season's dates, and an
    # event detached that is not in the season.
    other = played_event(ClubFactory(slug="other"), "Away", 7, ["Anna", "Ben"])
    late = played_event(club, "Autumn evening", 200, ["Anna", "Ben"])
    mine = played_event(club, "Evening 1", 7, ["Anna", "Ben"])
    for body, field in [
        ({}, "event"),
        ({"event": "nothing-here"}, "event"),
        ({"event": other.slug}, "event"),
        ({"event": late.slug}, "season"),
    ]:
        response = organiser.post(URL + "spring/events/", body, format="json")
        assert response.status_code == 400, response.content
        assert error(response)["field"] == field
    detached = organiser.delete(URL + f"spring/events/{mine.slug}/")
    assert detached.status_code == 400 and error(detached)["field"] == "event"
    assert not Tournament.objects.filter(season__isnull=False).exists()


def test_an_unknown_club_or_season_is_a_404(anonymous, organiser):
    assert anonymous.get("/api/v1/clubs/nowhere/seasons/").status_code == 404
    assert error(anonymous.get(URL + "nothing/"))["code"] == "not_found"
    assert organiser.get(URL + "nothing/standings/").status_code == 404
