"""Refusals are the site's own pages (templates/404.html, 403.html, 400.html on
base.html, config/errors.py) that say why, in the reader's language, with the right
status; never Django's bare page, nor a message naming a model ("No Game matches the
given query."). A JSON client (the API, the board's JSON calls) still gets the site's
one JSON error shape (tournaments/core/json_errors.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.test import Client
from django.urls import reverse
from django.utils import translation

from config.errors import reason
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db
SITE_PAGE = 'class="site-header"'  # base.html's header: a page of the site
LEAKS = ("matches the given query", "No Game", "No Seat", "No Entry", "Resolver404", "tried")


@pytest.fixture(autouse=True)
def _production(settings):
    """What a visitor of the running site sees: DEBUG off (Django's technical 404 page
    is for DEBUG only)."""
    settings.DEBUG = False


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(user)
    return user


@pytest.fixture
def cup(organiser):
    """Four players at two tables in a published round 1."""
    tournament = tournament_with_players(4, club=organiser.organised_clubs.get(), slug="cup")
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    return tournament


def page(response) -> str:
    html = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert SITE_PAGE in html, "not the site's own page"
    assert not [leak for leak in LEAKS if leak in html], html
    return html


def german() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    return client


def _other_tables_game(tournament) -> tuple[Seat, Game]:
    seat = Seat.objects.filter(table__round__tournament=tournament, table__number=1).first()
    other = Game.objects.filter(table__round__tournament=tournament, table__number=2).first()
    return seat, other


def test_a_doctored_report_form_for_another_tables_game_gets_the_sites_404_with_the_reason(
    client, cup
):
    seat, other = _other_tables_game(cup)
    url = reverse("seat-report", args=[seat.report_token])
    response = client.post(url, {"game": other.pk, "out_1": 3, "out_2": 1})
    assert response.status_code == 404
    html = page(response)
    assert "This game is not at your table" in html and "<h1>Not found</h1>" in html
    assert '<html lang="en">' in html
    # Nothing was written.
    assert not other.submissions.exists()
    # In German: the same page in the reader's language.
    response = german().post(url, {"game": other.pk, "out_1": 3, "out_2": 1})
    assert response.status_code == 404
    html = page(response)
    assert '<html lang="de">' in html and "Nicht gefunden" in html
    assert "Diese Partie wird nicht an deinem Tisch gespielt" in html


def test_a_form_naming_no_game_says_to_reload(client, cup):
    seat, _ = _other_tables_game(cup)
    response = client.post(reverse("seat-report", args=[seat.report_token]), {"game": "x"})
    assert response.status_code == 404
    assert "The form names no game; reload the page and send it again" in page(response)


def test_the_results_screen_refuses_another_rounds_game_by_its_round(client, organiser, cup):
    other_event = tournament_with_players(2, slug="other")  # another club's event
    round_publish(
        round=round_pair_next(tournament=other_event, by=Actor.command()), by=Actor.command()
    )
    foreign = Game.objects.filter(table__round__tournament=other_event).first()
    client.force_login(organiser)
    response = client.post(
        reverse("round-results", args=["cup", 1]), {"game": foreign.pk, "out": "3 1"}
    )
    assert response.status_code == 404
    assert "This game is not in round 1" in page(response)


def test_get_object_or_404_names_no_model_but_what_is_missing(client, cup):
    response = client.get(reverse("seat-report", args=["no-such-token"]))
    assert response.status_code == 404
    assert "This report link is not valid: ask the organiser for yours." in page(response)
    response = client.get(reverse("entry-detail", args=["cup", 999999]))
    assert response.status_code == 404
    assert "This player is not entered in this tournament." in page(response)
    response = client.get(reverse("round-detail", args=["cup", 7]))
    assert response.status_code == 404
    assert "There is no such round in this tournament." in page(response)
    # The run page's own round lookup says which tournament has no such round.
    client.force_login(UserFactory(username="org"))
    response = client.get(reverse("round-sheets", args=["cup", 7]))
    assert response.status_code == 404
    assert f"{cup.name} has no round 7" in page(response)


def test_an_unknown_address_and_an_unpublished_tournament_read_alike(client, cup):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "There is no page at this address." in page(response)
    cup.published = False
    cup.save(update_fields=["published"])
    response = client.get(reverse("tournament-detail", args=["cup"]))
    assert response.status_code == 404
    assert "There is no tournament at this address" in page(response)
    response = client.get(reverse("tournament-detail", args=["nothing-here"]))
    assert "There is no tournament at this address" in page(response)


def test_a_stranger_on_the_run_page_gets_the_sites_403_with_the_reason(cup):
    client = german()
    client.force_login(UserFactory(username="stranger"))
    response = client.get(reverse("tournament-manage", args=["cup"]))
    assert response.status_code == 403
    html = page(response)
    assert "Nicht erlaubt" in html and "Das darf nur die Turnierleitung dieses Turniers" in html


def test_a_form_without_its_csrf_token_gets_the_sites_403_saying_to_reload(organiser, cup):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(reverse("round-pair", args=["cup"]))
    assert response.status_code == 403
    html = page(response)
    assert "This form has expired or did not come from this site" in html
    assert "CSRF" not in html


def test_a_bad_request_gets_the_sites_400_without_the_details(client):
    response = client.get("/", HTTP_HOST="forged.example")
    assert response.status_code == 400
    html = page(response)
    assert "<h1>Bad request</h1>" in html and "The request could not be read." in html
    assert "forged.example" not in html


def test_the_reason_is_the_views_own_words_translated_or_a_general_sentence():
    assert reason(Http404("No Tournament matches the given query."), 404) == (
        "There is no such tournament."
    )
    assert reason(Http404("No Widget matches the given query."), 404) == (
        "There is no page at this address."
    )
    assert reason(Http404({"tried": [], "path": "x"}), 404) == "There is no page at this address."
    assert reason(PermissionDenied(), 403) == "You may not do that here."
    assert reason(BadRequest("the date is no date"), 400) == "the date is no date"
    assert reason(SuspiciousOperation("Invalid HTTP_HOST header"), 400) == (
        "The request could not be read."
    )
    with translation.override("de"):
        # A view's English reason is shown in German when the catalogue has it.
        assert reason(Http404("no such game"), 404) == "diese Partie gibt es nicht"


def test_json_clients_still_get_the_one_json_error_shape(client, cup):
    # An address under /api/ that no route takes, and a DRF view's own 404.
    for url in ("/api/v2/anything/", "/api/v1/tournaments/no-such-event/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json"
        body = response.json()
        assert set(body) == {"error"} and body["error"]["code"] == "not_found", body
        assert set(body["error"]) == {"code", "field", "message"}
    # A page's own JSON call (the board posts JSON) for a game that is not there.
    organiser = UserFactory(username="org")
    client.force_login(organiser)
    response = client.post(
        reverse("games:record", args=[999999]), "{}", content_type="application/json"
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    # And a 403 to a JSON client: the same shape.
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    response = stranger.get(
        reverse("tournament-manage", args=["cup"]), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "permission_denied",
        "field": None,
        "message": "only this tournament's directors may do that",
    }
