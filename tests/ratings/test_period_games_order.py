"""A rating period's games are rated in the order they were played: an evening's rounds
by number, each round's tables by number and each table's games by number, whatever
order the rows were created in (their ids). The read takes them from the server in no
order and sorts them itself (ratings/periods.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from ratings.models import RatingPeriod
from ratings.periods import periods_games
from tests.factories import tournament_with_players
from tournaments.models import Game, Round, Seat, Table

pytestmark = pytest.mark.django_db


def _played(tournament, numbers, tables, games):
    """Rounds of ``numbers`` (created in that order), each with tables numbered
    ``tables`` and their games numbered ``games`` (created in those orders); every
    table seats two entries. Returns {(round, table, game): Game id}."""
    entries = list(tournament.entries.order_by("seed"))
    made = {}
    for round_number in numbers:
        round_ = Round.objects.create(
            tournament=tournament, number=round_number, status="closed", closed_at=timezone.now()
        )
        for table_number in tables:
            table = Table.objects.create(round=round_, number=table_number)
            pair = entries[2 * (table_number - 1) : 2 * table_number]
            for position, entry in enumerate(pair, start=1):
                Seat.objects.create(
                    table=table,
                    round=round_,
                    entry=entry,
                    position=position,
                    report_token=f"t{round_.pk}-{table.pk}-{position}",
                )
            for game_number in games:
                game = Game.objects.create(
                    table=table,
                    number=game_number,
                    first_position=1 + game_number % 2,
                    status="finished",
                    out_1=3,
                    out_2=game_number % 3,
                )
                made[(round_number, table_number, game_number)] = game.pk
    return made


def test_a_periods_games_come_in_round_table_and_game_order_whatever_their_ids():
    evening = tournament_with_players(6)
    by_place = _played(evening, numbers=[2, 1], tables=[3, 1, 2], games=[2, 3, 1])
    league = tournament_with_players(6)
    by_place |= {
        ("league", *place): game
        for place, game in _played(league, numbers=[1], tables=[2, 3, 1], games=[3, 1, 2]).items()
    }
    periods = [
        RatingPeriod.objects.create(evening=evening, closed_at=timezone.now(), game=evening.game),
        RatingPeriod.objects.create(
            round=league.rounds.get(), closed_at=timezone.now(), game=league.game
        ),
    ]
    evening_games, round_games = periods_games(periods)

    ordered = [(r, t, g) for r in (1, 2) for t in (1, 2, 3) for g in (1, 2, 3)]
    assert evening_games.records == [by_place[place] for place in ordered]
    assert round_games.records == [
        by_place[("league", 1, t, g)] for t in (1, 2, 3) for g in (1, 2, 3)
    ]
    # The ids were not already in that order: the read sorted them.
    assert evening_games.records != sorted(evening_games.records)
    # Each game's seats and pieces out are its own: the first seat moves first.
    games = Game.objects.in_bulk(evening_games.records)
    for record, rated in zip(evening_games.records, evening_games.games, strict=True):
        game = games[record]
        players = {
            seat.position: str(seat.entry.player_id)
            for seat in Seat.objects.filter(table=game.table).select_related("entry")
        }
        first, other = game.first_position, 3 - game.first_position
        assert rated.seats == (players[first], players[other])
        outs = {1: game.out_1, 2: game.out_2}
        assert rated.out == (outs[first], outs[other])
