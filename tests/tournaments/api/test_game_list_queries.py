"""The API's game list reads each game's seat count in its one query: it counted the
seats once per game (500 rows in 0.43 s; a dozen such requests at once held others up)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish

pytestmark = pytest.mark.django_db


def _games_listed(players: int, slug: str) -> tuple[int, list[dict]]:
    tournament = tournament_with_players(players, slug=slug, published=True)
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    with CaptureQueriesContext(connection) as queries:
        answer = APIClient().get("/api/v1/games/?limit=500")
    assert answer.status_code == 200
    return len(queries), answer.json()["results"]


def test_the_game_list_costs_the_same_queries_for_three_times_the_games():
    few, small = _games_listed(5, "small")  # a table of two and one of three
    many, big = _games_listed(15, "big")
    assert len(big) > 3 * len(small) / 2
    assert many == few
    # Every game still gives one value per seat of its table.
    assert {len(game["out"]) for game in big} == {2, 3}
