"""The one hook between the layers: tournaments' services send tournaments/signals.py,
the ratings app turns each into a RatingJob (tournaments never import the ratings)."""

from __future__ import annotations

import pytest
from django.db import transaction

from ratings.models import RatingJob
from tests.factories import TournamentFactory, tournament_with_players
from tournaments import signals
from tournaments.desk.services.evenings import evening_close
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db


def played_round(tournament: Tournament):
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(
            game=game, out=[3] + [0] * (game.table.seats.count() - 1), by=Actor.command()
        )
    return round_


class Heard:
    """Records what a signal carried, as a second receiver beside the ratings'."""

    def __init__(self, signal) -> None:
        self.calls: list[dict] = []
        self.signal = signal

    def __call__(self, sender, **kwargs) -> None:
        self.calls.append(kwargs)

    def __enter__(self):
        self.signal.connect(self, weak=False)
        return self

    def __exit__(self, *exc) -> None:
        self.signal.disconnect(self)


def test_closing_a_round_sends_round_closed_and_queues_a_period_job():
    tournament = tournament_with_players(4)
    round_ = played_round(tournament)
    with Heard(signals.round_closed) as heard:
        round_close(round=round_, by=Actor.command())
    assert [call["round_id"] for call in heard.calls] == [round_.pk]
    job = RatingJob.objects.get()
    assert (job.kind, job.scope) == (RatingJob.Kind.PERIOD, {"round": round_.pk})


def test_changing_a_closed_result_sends_closed_result_changed_and_queues_a_recompute():
    tournament = tournament_with_players(4)
    round_ = played_round(tournament)
    round_close(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    with Heard(signals.closed_result_changed) as heard:
        game_record_out(
            game=game, out=[0, 3], version=game.version, by=Actor.command(), correction=True
        )
    assert [call["round_id"] for call in heard.calls] == [round_.pk]
    recompute = RatingJob.objects.get(kind=RatingJob.Kind.RECOMPUTE)
    assert recompute.scope == {"from_round": round_.pk}


def test_closing_an_evening_sends_evening_closed_and_queues_one_period_job():
    evening = TournamentFactory(kind=Tournament.Kind.EVENING)
    with Heard(signals.evening_closed) as heard:
        evening_close(tournament=evening, by=Actor.command())
    assert [call["tournament_id"] for call in heard.calls] == [evening.pk]
    job = RatingJob.objects.get()
    assert job.scope == {"evening": evening.pk}


def test_a_close_that_rolls_back_leaves_no_rating_job():
    tournament = tournament_with_players(4)
    round_ = played_round(tournament)
    with pytest.raises(RuntimeError), transaction.atomic():
        round_close(round=round_, by=Actor.command())
        raise RuntimeError("the surrounding work failed")
    assert not RatingJob.objects.exists()
