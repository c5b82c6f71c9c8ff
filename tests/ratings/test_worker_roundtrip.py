"""The real thing: a request queues a task, a separate `celery worker` process runs it,
and the result is visible in PostgreSQL."""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection
from django.urls import reverse

from ratings.models import RatingJob

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_task_queued_by_a_web_request_runs_in_the_worker(celery_worker_process, admin_client):
    assert connection.vendor == "postgresql"
    response = admin_client.post(reverse("ratings:job-ping"))
    assert response.status_code == 202
    job_id = response.json()["id"]
    deadline = time.monotonic() + 30
    job = RatingJob.objects.get(pk=job_id)
    while job.status != RatingJob.Status.DONE and time.monotonic() < deadline:
        time.sleep(0.1)
        job.refresh_from_db()
    assert job.status == RatingJob.Status.DONE
    # It ran in the worker process, not eagerly in this one.
    assert job.result["pid"] == celery_worker_process.pid
    assert job.result["pid"] != os.getpid()
