from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from ratings.models import GameRating, PeriodRating, PlayerRating, RatingJob, RatingPeriod
from ratings.periods import period_for_round
from ratings.rate import period_rate, ratings_recompute
from tests.factories import tournament_with_players
from tournaments.services.results import game_record_out
from tournaments.services.rounds import round_close, round_pair_next, round_publish

pytestmark = pytest.mark.django_db


def play(tournament, rounds: int, on_commit) -> None:
    for number in range(rounds):
        round_ = round_pair_next(tournament=tournament)
        round_publish(round=round_)
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            seats = game.table.seats.count()
            # A fixed, seat-dependent pattern so results differ between games.
            out = [3, (game.number + number) % 3, (game.number * 2) % 3][:seats]
            game_record_out(game=game, out=out)
        with on_commit(execute=True):
            round_close(round=round_)


def snapshot() -> list[tuple]:
    return sorted(
        PlayerRating.objects.values_list(
            "player_id", "system", "rating", "deviation", "state", "games"
        )
    )


def test_closing_rounds_rates_them_and_a_second_run_does_nothing(
    django_capture_on_commit_callbacks,
):
    tournament = tournament_with_players(7)
    play(tournament, 2, django_capture_on_commit_callbacks)
    assert RatingJob.objects.filter(status="done").count() == 2
    assert RatingPeriod.objects.filter(rated_at__isnull=False).count() == 2
    # 7 players rated in three systems.
    assert PlayerRating.objects.count() == 21
    before = snapshot()
    period = RatingPeriod.objects.first()
    assert period_rate(period=period) == "already rated"
    assert snapshot() == before


def test_a_full_recomputation_is_bit_identical(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(9)
    play(tournament, 3, django_capture_on_commit_callbacks)
    before = snapshot()
    history = sorted(
        PeriodRating.objects.values_list("period_id", "player_id", "system", "rating_after")
    )
    assert ratings_recompute() == 3
    assert snapshot() == before
    assert (
        sorted(PeriodRating.objects.values_list("period_id", "player_id", "system", "rating_after"))
        == history
    )


def test_editing_an_old_result_recomputes_from_that_round(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(6)
    play(tournament, 3, django_capture_on_commit_callbacks)
    first_round = tournament.rounds.get(number=1)
    game = Game.objects.filter(table__round=first_round).order_by("table__number", "number").first()
    with django_capture_on_commit_callbacks(execute=True):
        game_record_out(game=game, out=[0, 3])
    job = RatingJob.objects.filter(kind="recompute").get()
    assert job.status == "done" and job.result["periods"] == 3
    after_edit = snapshot()
    ratings_recompute()
    assert snapshot() == after_edit
    change = GameRating.objects.get(
        game=game, system="elo", player=game.table.seats.get(position=2).entry.player
    )
    assert change.after > change.before  # seat 2 now won that game


def test_a_job_that_dies_halfway_leaves_nothing_and_can_run_again(
    monkeypatch, django_capture_on_commit_callbacks
):
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament)
    round_publish(round=round_)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1])
    import ratings.rate as rate

    calls = {"n": 0}
    real = rate.rate_one_period

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:  # the second system: the first one has written rows already
            raise RuntimeError("worker killed")
        return real(*args, **kwargs)

    monkeypatch.setattr(rate, "rate_one_period", dying)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_)
    job = RatingJob.objects.get()
    assert job.status == "failed" and "worker killed" in job.error
    assert not PlayerRating.objects.exists() and not GameRating.objects.exists()
    monkeypatch.setattr(rate, "rate_one_period", real)
    assert period_rate(period=period_for_round(round_)) == "rated"
    assert PlayerRating.objects.count() == 12


def test_leaderboard_and_player_pages(client, django_capture_on_commit_callbacks):
    tournament = tournament_with_players(5)
    play(tournament, 2, django_capture_on_commit_callbacks)
    page = client.get(reverse("ratings:leaderboard") + "?system=glicko2&min_games=1")
    assert page.status_code == 200 and b"provisional" in page.content
    top = PlayerRating.objects.filter(system="elo").order_by("-rating").first()
    page = client.get(reverse("ratings:player", args=[top.player_id]) + "?system=elo")
    assert page.status_code == 200 and b"<polyline" in page.content
    assert client.get(reverse("ratings:leaderboard") + "?system=nope").status_code == 404
