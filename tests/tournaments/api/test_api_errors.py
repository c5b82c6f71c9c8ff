"""Bad input gets a 4xx with a JSON body naming the field, never a 500 or an HTML page.

Each case here was first found by the schema fuzzing (test_schema_fuzz.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory, tournament_with_players
from tournaments.results.services.results import Actor

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db
HUGE = 10**30


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tournaments/k%C3%BC r\n/standings/",  # unicode, a space, a newline
        "/api/v1/games/-2.5e-200/",  # not a whole number
        "/api/v1/tournaments/a/b/entries/",  # a slash inside the slug
        # A dot inside the slug read as a format suffix gave the browsable API's HTML.
        "/api/v1/tournaments/config.api/",
        "/api/v1/tournaments/config.api/entries/",
        "/api/v1/clubs/kiel.json/",
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "put"])
def test_paths_nothing_matches_answer_a_json_404(path, method):
    # A plain client: no CSRF exemption, so a POST must not meet the HTML 403 either.
    response = getattr(Client(enforce_csrf_checks=True), method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {"code": "not_found", "field": None, "message": "Not found."}
    }


def test_the_schema_and_the_slash_redirect_still_work():
    assert Client().get("/api/v1/schema/").status_code == 200
    assert Client().get("/api/v1/clubs").status_code == 301


def test_deleting_a_club_with_tournaments_is_a_409_not_a_500(director):
    response = director.delete("/api/v1/clubs/kiel/")
    assert response.status_code == 409
    assert "tournaments" in response.json()["error"]["message"]


def test_a_huge_rating_is_refused_naming_the_field(director):
    response = director.post("/api/v1/tournaments/cup/entries/", {"name": "Zed", "rating": HUGE})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "rating"


def test_a_huge_rating_in_a_pasted_list_is_refused_naming_the_field(director):
    response = director.post("/api/v1/tournaments/cup/entries/paste/", {"players": f"Zed, {HUGE}"})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "players"


@pytest.mark.parametrize("name", ["active_days", "min_games"])
def test_huge_leaderboard_filters_are_refused_naming_the_parameter(name):
    response = APIClient(raise_request_exception=False).get(f"/api/v1/ratings/?{name}={HUGE}")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == name


def test_a_nul_in_the_search_names_the_search_parameter():
    response = APIClient().get("/api/v1/players/?search=%00")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "search"


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [
        ("text/plain", b"hello", 415),
        ("application/json", b"{not json", 400),
        ("application/json", b"", 400),
        ("application/json", b"[1, 2]", 400),
    ],
)
def test_bodies_that_are_no_json_object_get_a_json_4xx(director, content_type, body, status):
    response = director.generic(
        "POST", "/api/v1/tournaments/cup/entries/", body, content_type=content_type
    )
    assert response.status_code == status
    assert isinstance(response.json(), dict) and response.json()


def test_the_schema_documents_json_errors_for_every_operation():
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "400" in responses, (method, path)
            assert "application/json" in responses["400"]["content"], (method, path)
            if method != "get":
                assert {"403", "429"} <= set(responses), (method, path)
            if "{" in path:
                assert "404" in responses, (method, path)


def test_list_actions_are_not_documented_as_paginated():
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    tables = paths["/api/v1/tournaments/{slug}/rounds/{number}/tables/"]["get"]
    paste = paths["/api/v1/tournaments/{slug}/entries/paste/"]["post"]
    assert tables["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"
    assert paste["responses"]["201"]["content"]["application/json"]["schema"]["type"] == "array"
    assert not [p for p in tables.get("parameters", []) if p["in"] == "query"]


@pytest.mark.django_db(transaction=True)
def test_polled_standings_see_every_change_at_once_and_stay_hidden_when_unpublished():
    """Outside a test transaction (the standings' version commits with the change): a
    change made through a service shows at the next poll, an unrelated write does not
    disturb the 304s, and an unpublished tournament stays hidden from anonymous pollers
    even after its director has loaded its standings."""
    from tournaments.desk.services.entries import entry_withdraw
    from tournaments.desk.services.tournaments import tournament_update

    director = UserFactory(username="td")
    tournament = tournament_with_players(4, slug="cup", name="Cup")
    tournament.directors.add(director)
    url = "/api/v1/tournaments/cup/standings/"
    anonymous = APIClient()
    etag = anonymous.get(url)["ETag"]
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    tournament_with_players(1, slug="other", name="Other")  # an unrelated write
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    entry_withdraw(entry=tournament.entries.get(seed=4), by=Actor.director(director))
    changed = anonymous.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["rows"][-1]["withdrawn"]
    tournament_update(tournament=tournament, by=Actor.director(director), published=False)
    mine = APIClient()
    mine.force_authenticate(director)
    assert mine.get(url).status_code == 200
    assert anonymous.get(url).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("target", 2000),
        ("target", 0),
        ("games_per_turn_3", 0),
        ("factor_3", "-0.04"),
        ("rounds_planned", 0),
    ],
)
def test_tournament_settings_out_of_range_name_the_field(field, value):
    from rest_framework.test import APIClient

    from tests.factories import UserFactory, tournament_with_players

    tournament = tournament_with_players(2)
    user = UserFactory(username=f"td-{field}-{value}")
    tournament.directors.add(user)
    api = APIClient()
    api.force_authenticate(user)
    response = api.patch(f"/api/v1/tournaments/{tournament.slug}/", {field: value}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == field


@pytest.mark.django_db(transaction=True)
def test_unchanged_standings_polls_are_answered_early_and_changes_show_at_once():
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.factories import tournament_with_players
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.models import Game
    from tournaments.results.services.results import game_record_out

    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    client = Client()
    etag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    assert len(queries) == 1  # the tournament's standings version, nothing else
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=DIRECTOR, game=game, out=[3, 1])
    # Results of the round being played do not count yet: the same standings, still 304.
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    round_close(round=round_, by=Actor.command())
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["rounds_closed"] == 1
    # The next poller with the old ETag gets the body this process rendered, early too.
    with CaptureQueriesContext(connection) as queries:
        same = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 200 and same.content == changed.content
    assert same["ETag"] == changed["ETag"] and len(queries) == 1
    tournament.published = False
    tournament.save()
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_renamed_player_shows_under_the_new_name_at_the_next_poll():
    """The defect: standings cached per content stamp kept a renamed player's old name
    for up to an hour. Renaming bumps the version of every tournament they entered."""
    from tests.factories import UserFactory
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.models import Game
    from tournaments.results.services.results import Actor, game_record_out

    tournament = tournament_with_players(4, slug="cup", name="Cup")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1], by=Actor.command())
    round_close(round=round_, by=Actor.command())
    staff = UserFactory(username="boss", is_staff=True, is_superuser=True)
    url = "/api/v1/tournaments/cup/standings/"
    poller = Client()
    first = poller.get(url)
    player = tournament.entries.get(seed=1).player
    assert player.name in [row["player"] for row in first.json()["rows"]]
    admin = Client()
    admin.force_login(staff)
    saved = admin.post(
        f"/admin/tournaments/player/{player.pk}/change/",
        {"name": "Renamed Person", "club": player.club_id or "", "user": ""},
    )
    assert saved.status_code == 302  # the admin's change form, through player_rename
    again = poller.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    names = [row["player"] for row in again.json()["rows"]]
    assert "Renamed Person" in names and player.name not in names
