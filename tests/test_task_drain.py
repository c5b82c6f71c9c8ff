"""The guard that keeps a test's Celery work from running into the next test's flush.

A `worker` test that ended while the real worker still ran its rating job let the job
read the tables while `TRUNCATE` flushed them, and the two deadlocked (the test command
went red on a fresh machine). `wait_for_tasks_done`, run at the teardown of every
database test on the real servers, must wait for such a job, purge work that no live
worker will ever run, and fail clearly when the worker stays busy."""

from __future__ import annotations

import argparse
import time

import pytest

from ratings.models import RatingJob, RatingPeriod
from ratings.tasks import rating_job_run_task
from tests.conftest import _broker, _tasks_pending, wait_for_tasks_done

pytestmark = pytest.mark.django_db(transaction=True)


def _recompute_job(games: int) -> RatingJob:
    """A recomputation long enough (a few seconds) to be caught running."""
    from bench.ratings_recompute import build

    build(argparse.Namespace(games=games, players=120, seed=5))
    first = RatingPeriod.objects.order_by("closed_at", "id").first()
    return RatingJob.objects.create(
        kind=RatingJob.Kind.RECOMPUTE, scope={"from_round": first.round_id}
    )


@pytest.mark.worker
def test_the_drain_returns_only_after_the_workers_job_has_finished(celery_worker_process):
    job = _recompute_job(3_000)
    rating_job_run_task.apply_async((job.pk,))
    wait_for_tasks_done()
    returned = time.time()
    job.refresh_from_db()
    assert job.status == RatingJob.Status.DONE, job.error
    assert job.finished_at.timestamp() <= returned
    assert _tasks_pending(_broker()) == {}


@pytest.mark.worker
def test_work_that_no_live_worker_consumes_is_purged_not_left_for_a_later_test(
    celery_worker_process,
):
    job = RatingJob.objects.create(kind=RatingJob.Kind.PING)
    rating_job_run_task.apply_async((job.pk,), queue="no-worker-consumes-this")
    assert _tasks_pending(_broker()) == {"no-worker-consumes-this": 1}
    wait_for_tasks_done()
    assert _tasks_pending(_broker()) == {}
    job.refresh_from_db()
    assert job.status == RatingJob.Status.QUEUED  # purged, never run


@pytest.mark.worker
def test_a_worker_still_busy_after_the_bound_fails_the_test_with_the_queue_named(
    celery_worker_process,
):
    job = _recompute_job(12_000)
    rating_job_run_task.apply_async((job.pk,))
    broker, deadline = _broker(), time.monotonic() + 30
    while not broker.hlen("unacked") and time.monotonic() < deadline:
        time.sleep(0.005)  # until the worker has taken the job (about a second's work)
    assert broker.hlen("unacked") == 1
    with pytest.raises(pytest.fail.Exception, match=r"still queued or running .*'celery'"):
        wait_for_tasks_done(seconds=0.01)
    wait_for_tasks_done()  # the running job is left to finish before the flush
    job.refresh_from_db()
    assert job.status == RatingJob.Status.DONE, job.error


@pytest.mark.services
def test_a_round_closed_in_a_test_without_the_worker_leaves_no_task_in_the_broker():
    """The test that deadlocked closed a round in a `services` test, which sent its
    rating job to Redis for whatever worker was running; now it runs in-process."""
    from tests.factories import tournament_with_players
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.results.services.results import Actor, game_record_out

    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for table in round_.tables.all():
        for game in table.games.all():
            game_record_out(game=game, out=[3, 1], by=Actor.command())
    round_close(round=round_, by=Actor.command())
    assert _tasks_pending(_broker()) == {}
    assert set(RatingJob.objects.values_list("status", flat=True)) == {RatingJob.Status.DONE}
