"""No committed round stays unrated: the rating job row is the outbox, and the sweep run
by Celery beat sends again whatever is still queued. On the real servers: a Redis that
is really stopped, a web process really killed between commit and publish, a worker
really killed mid-job; none of them needs a command to catch up."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from ratings.models import PlayerRating, RatingJob, RatingPeriod
from ratings.rate import ratings_recompute
from tests.conftest import _database_url, start_celery_worker, stop_celery_worker
from tests.factories import tournament_with_players
from tests.ratings.test_worker_killed import _everything, recompute_killed_mid_job
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor, game_record_out

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
SWEEP_WAIT = 60  # seconds: sweep every 1 s, grace 1 s, plus the job and a busy machine


def _played_round() -> Round:
    """A published round of four players with every result in, ready to close."""
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1], by=Actor.command())
    return round_


def _ratings() -> list[tuple]:
    return sorted(PlayerRating.objects.values_list("player_id", "system", "game", "state"))


def _wait_done(job: RatingJob, seconds: float = SWEEP_WAIT) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == RatingJob.Status.DONE:
            return
        time.sleep(0.1)
    pytest.fail(f"job {job.pk} still {job.status} after {seconds} s")


def _rated_like_a_clean_run() -> None:
    """The ratings the sweep produced equal a full recomputation from scratch."""
    swept = _ratings()
    assert swept
    ratings_recompute()
    assert _ratings() == swept


class _Redis:
    """A private redis-server on a free loopback port that the test can stop for real."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        pytest.fail("the private redis-server did not start")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def _close_in_a_web_process(
    round_: Round, *, redis_url: str, kill_after_commit: bool
) -> subprocess.CompletedProcess[str]:
    """Close the round through the service in a separate process, as a web request
    would, on the test database and the given Redis; with `kill_after_commit`, the
    process is SIGKILLed after the commit and before the service publishes the job."""
    script = (
        "import os, signal, django\n"
        "django.setup()\n"
        "from django.db import transaction\n"
        "from tournaments.models import Round\n"
        "from tournaments.core.actor import Actor\n"
        "from tournaments.desk.services.rounds import round_close\n"
        "with transaction.atomic():\n"
        + (
            "    # Runs after the commit, before the service's own hook that publishes.\n"
            "    transaction.on_commit(lambda: os.kill(os.getpid(), signal.SIGKILL))\n"
            if kill_after_commit
            else ""
        )
        + f"    round_close(round=Round.objects.get(pk={round_.pk}), by=Actor.command())\n"
        "print('closed')\n"
    )
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=_database_url(connection.settings_dict),
        REDIS_URL=redis_url,
        REDIS_CHECK_AT_START="false",
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_round_closed_while_redis_is_stopped_succeeds_and_is_rated_once_redis_is_back():
    redis = _Redis()
    redis.start()
    round_ = _played_round()
    redis.stop()
    closing = _close_in_a_web_process(round_, redis_url=redis.url, kill_after_commit=False)
    assert closing.returncode == 0 and "closed" in closing.stdout, closing.stderr
    assert "stays queued for the sweep" in closing.stderr  # the publish really failed
    job = RatingJob.objects.get(scope={"round": round_.pk})
    assert job.status == RatingJob.Status.QUEUED
    redis.start()  # Redis is back, empty: the task was never in it
    worker = None
    try:
        worker = start_celery_worker("celery-sweep-redis.log", beat=True, redis_url=redis.url)
        _wait_done(job)
    finally:
        if worker:
            stop_celery_worker(worker)
        redis.stop()
    _rated_like_a_clean_run()


def test_a_web_process_killed_between_commit_and_publish_is_rated_by_the_sweep():
    round_ = _played_round()
    killed = _close_in_a_web_process(
        round_, redis_url=os.environ["REDIS_URL"], kill_after_commit=True
    )
    assert killed.returncode == -signal.SIGKILL
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED  # committed
    job = RatingJob.objects.get(scope={"round": round_.pk})
    assert job.status == RatingJob.Status.QUEUED  # and never published
    worker = start_celery_worker("celery-sweep-killed-web.log", beat=True)
    try:
        _wait_done(job)
    finally:
        stop_celery_worker(worker)
    _rated_like_a_clean_run()


def test_a_worker_killed_mid_job_is_rerun_by_the_sweep_with_identical_ratings():
    from bench.ratings_recompute import build  # bulk history: the benchmark's builder

    build(argparse.Namespace(games=12_000, players=300, seed=3))
    assert ratings_recompute() == RatingPeriod.objects.count()
    rated = _everything()
    job = recompute_killed_mid_job("celery-sweep-killed-worker.log")
    assert job.status == RatingJob.Status.QUEUED
    # No manual rerun: a worker with beat on the default queue finds the job by itself.
    sweeper = start_celery_worker("celery-sweep-rerun.log", beat=True)
    try:
        _wait_done(job, seconds=SWEEP_WAIT + 120)
    finally:
        stop_celery_worker(sweeper)
    assert _everything() == rated
