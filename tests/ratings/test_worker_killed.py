"""A worker killed with SIGKILL in the middle of a recomputation loses nothing, and the
task run again (as the broker redelivers an unacknowledged task) gives the same numbers.

The history is large enough (about 12,000 games) that the job is caught with its
transaction open and written to; the kill is real, not simulated in-process."""

from __future__ import annotations

import argparse
import os
import signal
import time

import pytest
from django.db import connection

from ratings.models import GameRating, PeriodRating, PlayerRating, RatingJob, RatingPeriod
from ratings.rate import ratings_recompute
from ratings.tasks import rating_job_run_task
from tests.conftest import start_celery_worker, stop_celery_worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

QUEUE = "killed-worker-test"  # its own queue: no other test worker takes the task


def _everything() -> tuple[list[tuple], int, int]:
    players = sorted(
        PlayerRating.objects.values_list("player_id", "system", "game", "state", "games")
    )
    return players, GameRating.objects.count(), PeriodRating.objects.count()


def _writing() -> bool:
    """Whether another session has written in a transaction still open: the job, mid-way
    (it has deleted the old history and is rating or streaming the new rows)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND backend_xid IS NOT NULL"
        )
        return bool(cursor.fetchone()[0])


def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def recompute_killed_mid_job(log_name: str) -> RatingJob:
    """Queue a recomputation from the first period on a worker of its own, SIGKILL the
    worker while the job's transaction is open and written to, and wait until PostgreSQL
    has rolled it back. Returns the job, re-read."""
    first = RatingPeriod.objects.order_by("closed_at", "id").first()
    job = RatingJob.objects.create(
        kind=RatingJob.Kind.RECOMPUTE, scope={"from_round": first.round_id}
    )
    worker = start_celery_worker(log_name, queues=QUEUE)
    try:
        rating_job_run_task.apply_async((job.pk,), queue=QUEUE)
        _wait(_writing, 60, "the job to write")
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            stop_celery_worker(worker)
    assert worker.returncode == -signal.SIGKILL
    # PostgreSQL rolls the dead worker's transaction back once it notices the socket.
    _wait(lambda: not _writing(), 30, "the killed session to go away")
    job.refresh_from_db()
    return job


def test_a_worker_killed_mid_job_loses_nothing_and_the_rerun_gives_the_same_numbers():
    from bench.ratings_recompute import build  # bulk history: the benchmark's builder

    assert connection.vendor == "postgresql"
    build(argparse.Namespace(games=12_000, players=300, seed=3))
    assert ratings_recompute() == RatingPeriod.objects.count()
    rated = _everything()
    assert rated[1] > 0 and rated[2] > 0

    job = recompute_killed_mid_job("celery-killed-worker.log")
    assert job.status == RatingJob.Status.QUEUED and job.finished_at is None
    assert _everything() == rated  # nothing lost, nothing half-written

    worker = start_celery_worker("celery-killed-worker.log", queues=QUEUE)
    try:
        rating_job_run_task.apply_async((job.pk,), queue=QUEUE)

        def done() -> bool:
            job.refresh_from_db()
            return job.status != RatingJob.Status.QUEUED

        _wait(done, 120, "the rerun")
    finally:
        stop_celery_worker(worker)
    assert job.status == RatingJob.Status.DONE, job.error
    assert job.result["pid"] == worker.pid
    assert _everything() == rated  # bit-identical states, the same history
