"""Scoring settings made true through the services, the pages and the API: unplayed
games of a force-closed round, the late entrants' score, the organiser's tie-break
order, and the check that an even turn is worth the same at every table size."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import (
    forbidden_pair_add,
    tournament_create,
    tournament_update,
)
from tournaments.models import Game, Tournament
from tournaments.results.selectors.rounds import round_tables
from tournaments.results.services.results import Actor, game_record_out
from tournaments.standings.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory(username="td")


def test_a_force_closed_round_scores_unplayed_games_as_the_books_even_result(director):
    """The defect: a game never started scored nothing and its seated players were
    listed as absent."""
    tournament = tournament_with_players(5, slug="cup")
    tournament.directors.add(director)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    two = Game.objects.filter(table__round=round_, table__seats__position=3).distinct()
    pair = Game.objects.filter(table__round=round_).exclude(pk__in=two).order_by("number")
    # The 2-player table plays one game of three (3:1); the 3-player table none.
    game_record_out(game=pair.first(), out=[3, 1], by=Actor.command())
    round_close(round=round_, by=Actor.command(), force=True)
    rows = tournament_standings(tournament=tournament).rows
    scores = sorted(row.score for row in rows)
    # 3-player table: 3 * (3 + 3) = 18 each; 2-player: 2 * (5 + 3 + 3) = 22 and 2 * 7 = 14.
    assert scores == [14, 18, 18, 18, 22]
    assert sum(scores) == 5 * 18
    assert all(row.notes == "" for row in rows)
    # The round's own page shows the same round scores.
    round_.refresh_from_db()
    shown = sorted(seat.round_score for t in round_tables(round_=round_) for seat in t.seats)
    assert shown == scores


def test_the_late_score_is_a_setting_and_guarded_once_played(director):
    tournament = tournament_with_players(4, slug="cup")
    tournament.directors.add(director)
    by = Actor.director(director)
    tournament_update(tournament=tournament, by=by, late_score=Decimal("6"))
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 3], by=Actor.command())
    round_close(round=round_, by=Actor.command())
    late = entry_add(tournament=tournament, name="Late", by=by)
    # Not ranked before her first round is closed; her points for the missed round
    # are counted all the same (the pairing ranks by them).
    standings = tournament_standings(tournament=tournament)
    assert late.pk not in {row.entry_id for row in standings.rows}
    rows = {row.entry_id: row for row in standings.not_ranked}
    assert rows[late.pk].score == 6
    assert rows[late.pk].apart_note == "entered in round 2"
    with pytest.raises(ServiceError) as refused:
        tournament_update(tournament=tournament, by=by, late_score=Decimal("9"))
    assert refused.value.field == "late_score"
    tournament_update(tournament=tournament, by=by, late_score=Decimal("9"), recompute=True)
    rows = {row.entry_id: row for row in tournament_standings(tournament=tournament).not_ranked}
    assert rows[late.pk].score == 9


def test_uneven_turns_are_refused_with_the_numbers_unless_confirmed(director):
    club = ClubFactory(slug="home")
    club.organisers.add(director)
    by = Actor.director(director)
    with pytest.raises(ServiceError) as refused:
        tournament_create(club=club, name="Quick", by=by, games_per_turn_2=1, games_per_turn_3=1)
    assert refused.value.field == "games_per_turn_2"
    assert "3 × 1 games × 2 = 6" in refused.value.message
    assert "3 × 1 games × 3 = 9" in refused.value.message
    assert not Tournament.objects.filter(name="Quick").exists()
    # Even with the book's factors swapped for equal ones, or confirmed.
    tournament_create(
        club=club, name="Quick", by=by, games_per_turn_2=1, games_per_turn_3=1, factor_2=3
    )
    tournament_create(
        club=club,
        name="Quicker",
        by=by,
        games_per_turn_2=1,
        games_per_turn_3=1,
        uneven_turns=True,
    )
    # No 3-player tables, nothing to compare.
    tournament_create(club=club, name="Pairs", by=by, games_per_turn_2=1, policy="pairs+bye")


def test_the_api_refuses_uneven_turns_naming_the_field_and_accepts_the_confirmation(director):
    club = ClubFactory(slug="home")
    club.organisers.add(director)
    api = APIClient()
    api.force_authenticate(director)
    body = {"club": "home", "name": "Cup", "games_per_turn_2": 2, "games_per_turn_3": 1}
    response = api.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["field"] == "games_per_turn_2"
    assert "= 12" in str(response.json()) and "= 9" in str(response.json())
    response = api.post("/api/v1/tournaments/", {**body, "uneven_turns": True}, format="json")
    assert response.status_code == 201, response.content
    assert "uneven_turns" not in response.json()


def test_the_tie_break_order_is_validated_everywhere(director):
    tournament = tournament_with_players(4, slug="cup")
    tournament.directors.add(director)
    by = Actor.director(director)
    for bad in (["coin"], ["wins", "wins"], "wins"):
        with pytest.raises(ServiceError) as refused:
            tournament_update(tournament=tournament, by=by, tiebreaks=bad)
        assert refused.value.field == "tiebreaks"
    api = APIClient()
    api.force_authenticate(director)
    response = api.patch("/api/v1/tournaments/cup/", {"tiebreaks": ["wins", "wins"]}, format="json")
    assert response.status_code == 400
    response = api.patch(
        "/api/v1/tournaments/cup/", {"tiebreaks": ["seated_after", "per_match"]}, format="json"
    )
    assert response.status_code == 200
    labels = tournament_standings(tournament=tournament).tiebreak_labels
    assert labels == ["Seated after", "Per match"]


def test_the_settings_page_reorders_the_tie_breaks(director):
    tournament = tournament_with_players(4, slug="cup", name="Cup")
    tournament.directors.add(director)
    tournament.club.organisers.add(director)
    page = Client()
    page.force_login(director)
    form = {
        "club": tournament.club_id,
        "name": "Cup",
        "game": "pentagame",
        "kind": "swiss",
        "rounds_planned": 5,
        "policy": "pairs+triple",
        "games_per_turn_2": 3,
        "games_per_turn_3": 2,
        "factor_2": "2",
        "factor_3": "3",
        "target": 3,
        "absence_score": "0",
        "tiebreaks": "wins, per game, opponents",
        "published": "on",
    }
    response = page.post("/t/cup/manage/settings/", form)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["wins", "per_game", "opponents"]
    shown = page.get("/t/cup/manage/settings/").content.decode()
    assert "wins, per_game, opponents" in shown
    response = page.post("/t/cup/manage/settings/", {**form, "tiebreaks": "wins, coin"})
    assert response.status_code == 200
    assert "unknown tie-break coin" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tiebreaks == ["wins", "per_game", "opponents"]


def test_three_players_with_a_forbidden_pair_are_paired_with_a_bye(director):
    """The defect: pairing a 3-player field with a forbidden pair failed."""
    tournament = tournament_with_players(3, slug="cup")
    tournament.directors.add(director)
    by = Actor.director(director)
    first, second, third = tournament.entries.order_by("seed")
    forbidden_pair_add(tournament=tournament, first=first, second=second, by=by)
    round_ = round_pair_next(tournament=tournament, by=by)
    tables = list(round_.tables.order_by("number"))
    byes = [t for t in tables if t.is_bye]
    played = [t for t in tables if not t.is_bye]
    assert len(byes) == 1 and len(played) == 1
    seated = set(played[0].seats.values_list("entry_id", flat=True))
    assert third.pk in seated and not {first.pk, second.pk} <= seated


def test_the_demo_tournaments_keep_an_even_turn_worth_the_same_at_every_table(director):
    """The demo's other games played 1 game per turn with factors 2 and 3."""
    from tournaments.demo import FAMILY, _family
    from tournaments.standings.selectors.standings import scoring_settings

    club = ClubFactory(slug="demo")
    club.organisers.add(director)  # the demo's organiser creates them through the service
    for game, players, policy in FAMILY:
        if policy != Tournament.Policy.PAIRS_BYE:
            _family(club, director, game, players, policy)
    tournaments = list(Tournament.objects.all())
    assert len(tournaments) == 2
    for tournament in tournaments:
        settings = scoring_settings(tournament)
        assert settings.turns_are_even(), (tournament.slug, settings.even_turns())
