"""Tournaments for every game of the family: records replayed by the game's own engine,
results turned into zero-sum points by its ruleset."""

from __future__ import annotations

import pytest

from games import rulesets
from tests.factories import tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.demo import random_record
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_moves, game_record_out
from tournaments.standings.selectors.standings import tournament_standings

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "players", "policy"),
    [
        ("pantarei", 3, "pairs+bye"),
        ("pentamid_twist", 2, "pairs+bye"),
        ("pent_up", 3, "pairs+triple"),
        ("pentacosmos", 3, "pairs+triple"),
    ],
)
def test_a_round_of_each_game(game, players, policy):
    ruleset = rulesets.get(game)
    tournament = tournament_with_players(
        players, game=game, policy=policy, games_per_turn_2=1, games_per_turn_3=1
    )
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    played = 0
    for record in Game.objects.filter(table__round=round_).select_related("table"):
        n = record.table.seats.count()
        moves, setup = random_record(game, n, seed=record.pk)
        # A random record may stop before its end: the turn ended, an unfinished result.
        saved = game_record_moves(
            by=DIRECTOR, game=record, moves=moves, setup=setup, finished=False
        )
        assert saved.moves == moves and saved.setup == setup
        assert all(0 <= v <= ruleset.target for v in saved.out_list(n))
        played += 1
    assert played >= 1
    round_close(round=round_, by=Actor.command())
    standings = tournament_standings(tournament=tournament)
    assert len(standings.rows) == players
    # Zero-sum per game: every table's points add up to what a drawn game hands out.
    tables = [t for t in round_.tables.all() if not t.is_bye]
    expected = 0.0
    for table in tables:
        n = table.seats.count()
        factor = float(tournament.factor_2 if n == 2 else tournament.factor_3)
        expected += sum(ruleset.points([0] * n)) * factor * table.games.count()
    byes = sum(1 for t in round_.tables.all() if t.is_bye)
    bye_value = ruleset.points([0, 0])[0] * float(tournament.factor_2) * tournament.games_per_turn_2
    assert sum(r.score for r in standings.rows) == pytest.approx(expected + byes * bye_value)


def test_an_illegal_record_of_another_game_names_the_ply():
    tournament = tournament_with_players(2, game="pentamid_twist", policy="pairs+bye")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    record = Game.objects.filter(table__round=round_).first()
    with pytest.raises(ServiceError, match=r"^ply 1 "):
        game_record_moves(by=DIRECTOR, game=record, moves=["z9-z10 ne+"])


def test_a_two_player_game_refuses_three_player_tables():
    tournament = tournament_with_players(3, game="pantarei", policy="pairs+triple")
    with pytest.raises(ServiceError, match="played at tables of 2"):
        round_pair_next(tournament=tournament, by=Actor.command())


def test_a_draw_is_a_valid_finished_result_outside_pentagame():
    tournament = tournament_with_players(2, game="pantarei", policy="pairs+bye")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    record = Game.objects.filter(table__round=round_).first()
    saved = game_record_out(by=DIRECTOR, game=record, out=[0, 0])
    assert saved.status == "finished"
