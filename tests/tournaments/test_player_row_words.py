"""The player's report page names who settled a game (issue 42, "Why" 9): a result the
organiser entered, or a report she accepted, is not one an opponent confirmed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, ResultSubmission
from tournaments.results.services.results import Actor, game_confirm, game_record_out, result_accept

pytestmark = pytest.mark.django_db
DIRECTOR = Actor.command()


@pytest.fixture
def game():
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(UserFactory(username="org"))
    tournament = tournament_with_players(2, club=club)
    round_ = round_pair_next(tournament=tournament, by=DIRECTOR)
    round_publish(round=round_, by=DIRECTOR)
    return Game.objects.get(table__round=round_, number=1)


def seat_of(game: Game, position: int):
    return game.table.seats.get(position=position)


def row(client, game: Game, position: int) -> str:
    """The text of the game's row on the player's report page."""
    page = client.get(reverse("seat-report", args=[seat_of(game, position).report_token]))
    assert page.status_code == 200
    html = page.content.decode()
    start = html.index(f'id="game-{game.pk}"')
    return html[start : html.index("</p>", start)]


def test_a_report_the_organiser_overruled_with_her_entry_says_entered_by_the_organiser(
    client, game
):
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 1)))
    game_record_out(game=game, out=[1, 3], by=DIRECTOR)
    text = row(client, game, 1)
    assert "1:3" in text
    assert "entered by the organiser" in text
    assert "confirmed" not in text


def test_a_report_the_organiser_accepted_says_accepted_by_the_organiser(client, game):
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 1)))
    game_record_out(game=game, out=[1, 3], by=Actor.player(seat_of(game, 2)))
    disputed = game.submissions.get(by_seat__position=2)
    assert disputed.state == ResultSubmission.State.DISPUTED
    result_accept(submission=disputed, by=DIRECTOR)
    for position in (1, 2):
        text = row(client, game, position)
        assert "1:3" in text
        assert "accepted by the organiser" in text
        assert "confirmed" not in text


def test_a_report_the_opponent_confirmed_still_says_confirmed(client, game):
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 1)))
    game_confirm(game=game, by=Actor.player(seat_of(game, 2)))
    text = row(client, game, 1)
    assert "3:1 — confirmed" in text
    assert "organiser" not in text


def test_two_agreeing_reports_say_confirmed(client, game):
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 1)))
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 2)))
    for position in (1, 2):
        assert "3:1 — confirmed" in row(client, game, position)


def test_the_report_page_asks_the_same_number_of_queries_whoever_settled_the_game(client, game):
    """Who settled the game comes with the round's rows, not a query per game."""
    token = seat_of(game, 1).report_token
    game_record_out(game=game, out=[3, 1], by=Actor.player(seat_of(game, 1)))
    with CaptureQueriesContext(connection) as waiting:
        client.get(reverse("seat-report", args=[token]))
    game_record_out(game=game, out=[1, 3], by=DIRECTOR)
    with CaptureQueriesContext(connection) as entered:
        client.get(reverse("seat-report", args=[token]))
    assert len(entered) == len(waiting)
