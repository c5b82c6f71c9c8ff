"""The tournament's pairing method: the book's top-down rule by default, "closest scores"
as the organiser's option; the round pairing service, the settings page and the API."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next
from tournaments.models import ForbiddenPair, Seat, Tournament
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db

# Six players, all on 0 points in round 1, who may not sit together as P01-P05, P02-P04,
# P01-P02: the book pairs each with the next one down she may meet; closest scores (all
# equal here) only minimises the rank spans (docs/pairing.md, second example).
BOOK = [{"P01", "P03"}, {"P02", "P05"}, {"P04", "P06"}]
CLOSEST = [{"P01", "P04"}, {"P02", "P03"}, {"P05", "P06"}]


def six_with_forbidden_pairs(**settings: object) -> Tournament:
    tournament = tournament_with_players(6, policy="pairs+bye", **settings)
    entry = {e.seed: e for e in tournament.entries.all()}
    for a, b in [(1, 5), (2, 4), (1, 2)]:
        ForbiddenPair.objects.create(tournament=tournament, first=entry[a], second=entry[b])
    return tournament


def tables_of(tournament: Tournament) -> list[set[str]]:
    by_table: dict[int, set[str]] = {}
    for table, name in Seat.objects.filter(round__tournament=tournament).values_list(
        "table__number", "entry__player__name"
    ):
        by_table.setdefault(table, set()).add(name)
    return [by_table[k] for k in sorted(by_table)]


def test_a_new_tournament_pairs_by_the_book() -> None:
    tournament = six_with_forbidden_pairs()
    assert tournament.pairing_method == "book"
    round_pair_next(tournament=tournament, by=Actor.command())
    assert tables_of(tournament) == BOOK


def test_the_closest_scores_option_reaches_the_engine() -> None:
    tournament = six_with_forbidden_pairs(pairing_method="closest")
    round_pair_next(tournament=tournament, by=Actor.command())
    assert tables_of(tournament) == CLOSEST


@pytest.fixture
def director() -> object:
    user = UserFactory(username="td")
    tournament = tournament_with_players(4, slug="cup", name="Cup")
    tournament.directors.add(user)
    tournament.club.organisers.add(user)
    return user


def test_the_api_shows_and_changes_the_pairing_method(director: object) -> None:
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(director)
    assert api.get("/api/v1/tournaments/cup/").json()["pairing_method"] == "book"
    response = api.patch("/api/v1/tournaments/cup/", {"pairing_method": "closest"}, format="json")
    assert response.status_code == 200, response.content
    assert Tournament.objects.get(slug="cup").pairing_method == "closest"
    refused = api.patch("/api/v1/tournaments/cup/", {"pairing_method": "random"}, format="json")
    assert refused.status_code == 400
    assert "pairing_method" in refused.content.decode()
    assert Tournament.objects.get(slug="cup").pairing_method == "closest"


def settings_form(tournament: Tournament, **changes: object) -> dict[str, object]:
    form: dict[str, object] = {
        "club": tournament.club_id,
        "name": tournament.name,
        "game": tournament.game,
        "kind": tournament.kind,
        "date": "",
        "rounds_planned": 5,
        "policy": tournament.policy,
        "games_per_turn_2": 3,
        "games_per_turn_3": 2,
        "factor_2": "2",
        "factor_3": "3",
        "target": 3,
        "bye_score": "",
        "absence_score": "0",
    }
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


def test_the_settings_page_offers_and_saves_the_pairing_method(director: object) -> None:
    page = Client()
    page.force_login(director)
    html = page.get("/t/cup/manage/settings/").content.decode()
    assert 'name="pairing_method"' in html
    assert 'value="closest"' in html
    tournament = Tournament.objects.get(slug="cup")
    response = page.post(
        "/t/cup/manage/settings/", settings_form(tournament, pairing_method="closest")
    )
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(slug="cup").pairing_method == "closest"
    # A post without the field (an older page) keeps the method.
    response = page.post("/t/cup/manage/settings/", settings_form(tournament, pairing_method=None))
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(slug="cup").pairing_method == "closest"
