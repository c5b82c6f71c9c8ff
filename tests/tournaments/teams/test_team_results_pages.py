"""A 2 vs 2 game through the web pages: the results screen takes `3120` (and `3 1 2 0`)
and a player's link takes all four seats' pieces out. Both answered "seat 4: pieces out
missing" while the form had fields for three seats, and such a round could never close."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, ResultSubmission, Round, Seat, Tournament

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def round_() -> Round:
    event = TournamentFactory(
        kind=Tournament.Kind.TEAMS, slug="pairs", name="Pairs", rounds_planned=3
    )
    for name, players in [
        ("Stars", ["Ann", "Bea"]),
        ("Moons", ["Cid", "Dan"]),
        ("Suns", ["Eve", "Fay"]),
        ("Comets", ["Gus", "Hal"]),
    ]:
        team_add(tournament=event, name=name, players=players, ratings=[None, None], by=BY)
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    return round_


def _director(round_: Round) -> Client:
    user = UserFactory()
    round_.tournament.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _games(round_: Round) -> list[Game]:
    return list(Game.objects.filter(table__round=round_).order_by("table__number", "number"))


@pytest.mark.parametrize("typed", ["3120", "3 1 2 0"])
def test_the_results_screen_takes_a_team_game_in_its_four_digits(round_, typed):
    client = _director(round_)
    games = _games(round_)
    assert all(Seat.objects.filter(table_id=g.table_id).count() == 4 for g in games)
    for game in games:
        url = reverse("round-result-save", args=["pairs", round_.number, game.pk])
        response = client.post(url, {"out": typed, "version": game.version}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content[:300]
        game.refresh_from_db()
        assert game.out_list(4) == [3, 1, 2, 0]
        assert game.status == Game.Status.FINISHED
    round_close(round=round_, by=BY)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_a_players_link_reports_all_four_seats_of_a_team_game(round_):
    game = _games(round_)[0]
    seat = Seat.objects.get(table_id=game.table_id, position=1)
    url = reverse("seat-report", args=[seat.report_token])
    fields = {f"out_{p}": v for p, v in enumerate([1, 3, 0, 2], start=1)}
    response = Client().post(url, {"game": game.pk, "version": game.version, **fields})
    assert response.status_code == 302
    report = ResultSubmission.objects.get(game=game, by_seat=seat)
    assert list(report.out) == [1, 3, 0, 2]
