from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from ratings.models import RatingJob
from ratings.services import RATING_JOB_RUN_TASK, rating_job_run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_a_job_queued_by_a_request_runs_after_commit(
    admin_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post(reverse("ratings:job-ping"))
    assert response.status_code == 202
    job = RatingJob.objects.get(pk=response.json()["id"])
    # Nothing ran before the commit: the task is only a pending on-commit callback.
    assert job.status == RatingJob.Status.QUEUED
    assert len(callbacks) == 1
    callbacks[0]()
    job.refresh_from_db()
    assert job.status == RatingJob.Status.DONE
    assert job.result["pid"] > 0


@pytest.mark.django_db
def test_running_a_done_job_again_changes_nothing():
    job = RatingJob.objects.create(kind=RatingJob.Kind.PING)
    first = rating_job_run(job_id=job.pk)
    assert first is not None and first.status == RatingJob.Status.DONE
    finished = first.finished_at
    again = rating_job_run(job_id=job.pk)
    assert again is not None and again.finished_at == finished


@pytest.mark.django_db
def test_anonymous_users_cannot_queue_jobs(client):
    response = client.post(reverse("ratings:job-ping"))
    assert response.status_code == 302
    assert RatingJob.objects.count() == 0


def test_every_process_knows_the_task_the_services_send_by_name():
    # A fresh process, as a web worker starts: only Django's setup, no import of
    # ratings.tasks (in this test process other tests' imports would hide its absence).
    # Unregistered, an eager job would go to a broker that the embedded default lacks.
    code = (
        "import django; django.setup()\n"
        "from celery import current_app\n"
        f"task = current_app.tasks[{RATING_JOB_RUN_TASK!r}]\n"
        "print(task.__module__, task.acks_late)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ratings.tasks", "True"]
