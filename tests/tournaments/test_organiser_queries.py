"""The organiser's actions through the pages cost the same number of SQL queries for a
field of 6 as for one of 20 (bench/organiser_actions.py measures 100 and 500)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="org")


def after_round_1(organiser, players: int) -> Tournament:
    """A Swiss whose first round is played and closed; the organiser directs it."""
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = tournament_with_players(players, club=club, rounds_planned=3)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    enter_all(round_)
    round_close(round=round_, by=Actor.command())
    return tournament


def enter_all(round_: Round) -> None:
    for game in Game.objects.filter(table__round=round_, status="pending").select_related("table"):
        seats = game.table.seats.count()
        game_record_out(game=game, out=[3, 1, 0][:seats], by=Actor.command())


def queries(client, method: str, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url)
    assert response.status_code == (200 if method == "get" else 302)
    return len(captured)


def actions(client, tournament: Tournament) -> dict[str, int]:
    """Queries of each action on round 2, in the order the organiser takes them."""
    slug = tournament.slug
    manage = reverse("tournament-manage", args=[slug])
    counts = {"pair": queries(client, "post", reverse("round-pair", args=[slug]))}
    round_ = Round.objects.get(tournament=tournament, number=2)
    counts["publish"] = queries(client, "post", reverse("round-action", args=[slug, 2, "publish"]))
    counts["manage page"] = queries(client, "get", manage)
    enter_all(round_)
    counts["close"] = queries(client, "post", reverse("round-action", args=[slug, 2, "close"]))
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    return counts


@pytest.mark.parametrize("small, large", [(6, 20), (7, 21)])
def test_pairing_publishing_closing_and_the_manage_page_cost_the_same_queries_for_a_bigger_field(
    client, organiser, small, large
):
    client.force_login(organiser)
    few, many = after_round_1(organiser, small), after_round_1(organiser, large)
    client.get(reverse("tournament-manage", args=[few.slug]))  # warm the session
    counts_few, counts_many = actions(client, few), actions(client, many)
    assert Round.objects.get(tournament=many, number=2).tables.count() == large // 2
    assert counts_many == counts_few


def test_the_progress_counted_in_the_database_is_the_one_the_tables_show(organiser):
    from tournaments.results.selectors.rounds import (
        round_progress,
        round_progress_counted,
        round_tables,
    )

    tournament = tournament_with_players(7, club=ClubFactory(), policy="pairs+bye")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    first, second, third = Game.objects.filter(
        table__round=round_, table__is_bye=False
    ).select_related("table")[:3]
    game_record_out(game=first, out=[3, 1], by=Actor.command())  # counts
    # A player's report waits for the opponent: played, but not counted yet.
    game_record_out(game=second, out=[3, 0], by=Actor.player(second.table.seats.first()))
    game_record_out(game=third, out=[2, 3], finished=False, by=Actor.command())  # counts
    counted = round_progress_counted(round_)
    assert counted == round_progress(round_tables(round_=round_))
    assert (counted.done, counted.total) == (2, 9)
