"""A game nobody played moves no rating: when the turn ended before a game started and
the organiser closed the round anyway, the standings score it as the book's 3:3
(unfinished 0:0, docs/scoring.md), but the ratings rate only the games played."""

from __future__ import annotations

import pytest

from ratings.models import GameRating, PlayerRating, RatingPeriod
from ratings.rate import ratings_recompute
from tests.factories import TournamentFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, Round, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db
BY = Actor.command()


def published(tournament: Tournament) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    return round_


def rated_games(tournament: Tournament) -> dict[str, int]:
    """Games rated per player (one system is enough: all rate the same games)."""
    system = PlayerRating.objects.values_list("system", flat=True).first()
    return dict(
        PlayerRating.objects.filter(system=system, player__entries__tournament=tournament)
        .values_list("player__name", "games")
        .distinct()
    )


def test_a_table_that_played_nothing_in_a_force_closed_round_moves_no_rating(
    django_capture_on_commit_callbacks,
):
    tournament = tournament_with_players(4, rounds_planned=1)
    round_ = published(tournament)
    first, second = sorted({g.table for g in Game.objects.filter(table__round=round_)}, key=str)
    for game in first.games.all():
        game_record_out(game=game, out=[3, 1], by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=BY, force=True)
    period = RatingPeriod.objects.get(round=round_)
    assert period.rated_at is not None
    # The standings count the unplayed table's games as 3:3 ...
    scores = {r.name: r.score for r in tournament_standings(tournament=tournament).rows}
    idle = [s.entry.player.name for s in second.seats.select_related("entry__player")]
    assert [scores[name] for name in idle] == [18.0, 18.0]
    # ... the ratings know nothing of them.
    rated = rated_games(tournament)
    assert all(name not in rated for name in idle)
    assert not GameRating.objects.filter(game__table=second).exists()
    assert period.games == first.games.count()


def test_a_match_cut_short_rates_only_its_games_played(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(2, rounds_planned=1)
    round_ = published(tournament)
    games = list(Game.objects.filter(table__round=round_).order_by("number"))
    assert len(games) == 3
    game_record_out(game=games[0], out=[3, 0], by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=BY, force=True)
    assert set(rated_games(tournament).values()) == {1}
    assert list(GameRating.objects.values_list("game_id", flat=True).distinct()) == [games[0].pk]
    # Rating the whole history afresh gives the same.
    before = sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games"))
    ratings_recompute()
    after = sorted(PlayerRating.objects.values_list("player_id", "system", "rating", "games"))
    assert after == before


def test_a_team_match_cut_short_rates_only_its_game_played(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(kind=Tournament.Kind.TEAMS, rounds_planned=1)
    team_add(tournament=tournament, name="Stars", players=["Ann", "Bea"], by=BY)
    team_add(tournament=tournament, name="Moons", players=["Cid", "Dan"], by=BY)
    round_ = published(tournament)
    first, _second = Game.objects.filter(table__round=round_).order_by("number")
    game_record_out(game=first, out=[3, 1, 2, 1], by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=BY, force=True)
    assert rated_games(tournament) == {"Ann": 1, "Bea": 1, "Cid": 1, "Dan": 1}
    assert set(GameRating.objects.values_list("game_id", flat=True)) == {first.pk}


def test_a_game_entered_as_unfinished_with_no_piece_out_moves_no_rating(
    django_capture_on_commit_callbacks,
):
    """The organiser may type the unplayed game in (0 0, unfinished) instead of leaving
    it empty: docs/scoring.md makes the two the same game, and nobody played it."""
    tournament = tournament_with_players(2, rounds_planned=1)
    round_ = published(tournament)
    games = list(Game.objects.filter(table__round=round_).order_by("number"))
    game_record_out(game=games[0], out=[3, 0], by=BY)
    for game in games[1:]:
        game_record_out(game=game, out=[0, 0], finished=False, by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=BY)
    assert set(rated_games(tournament).values()) == {1}
    assert list(GameRating.objects.values_list("game_id", flat=True).distinct()) == [games[0].pk]
