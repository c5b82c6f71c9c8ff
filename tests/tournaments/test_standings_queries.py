from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.entries import entry_withdraw
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_add_rounds
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out
from tournaments.standings.selectors.standings import tournament_standings

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


def played(n: int, rounds: int):
    tournament = tournament_with_players(n, rounds_planned=rounds)
    for _ in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=Actor.command())
        round_publish(round=round_, by=Actor.command())
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            game_record_out(by=DIRECTOR, game=game, out=[3, 1, 2][: game.table.seats.count()])
        round_close(round=round_, by=Actor.command())
    return tournament


def test_the_number_of_queries_does_not_grow_with_the_field():
    small, large = played(4, 2), played(15, 2)
    counts = []
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            standings = tournament_standings(tournament=tournament)
        counts.append(len(queries))
        assert len(standings.rows) in (4, 15)
    assert counts[0] == counts[1]


def test_withdrawn_players_stay_in_the_standings_marked():
    tournament = played(5, 1)
    # A finished tournament takes no withdrawal (issue 27, item 1): one more round first.
    director = UserFactory()
    tournament.directors.add(director)
    tournament_add_rounds(tournament=tournament, count=1, by=Actor.director(director))
    entry = tournament.entries.order_by("seed").first()
    entry_withdraw(entry=entry, by=Actor.command())
    row = next(
        r for r in tournament_standings(tournament=tournament).rows if r.entry_id == entry.pk
    )
    assert row.withdrawn
