"""Writes for the ratings app: queue jobs after commit, run them in the worker."""

from __future__ import annotations

import os
import socket
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from .models import RatingJob


def rating_job_queue(
    *,
    kind: str,
    scope: dict[str, Any] | None = None,
    by: AbstractBaseUser | AnonymousUser | None = None,
) -> RatingJob:
    """Create the job row and queue its task once the row (and the data it reads) is
    committed; queuing earlier would let a fast worker look for rows that do not exist."""
    from .tasks import rating_job_run_task

    user = by if isinstance(by, AbstractBaseUser) else None
    with transaction.atomic():
        job = RatingJob.objects.create(kind=kind, scope=scope or {}, requested_by=user)
        transaction.on_commit(lambda: rating_job_run_task.delay(job.pk))
    return job


def rating_job_run(*, job_id: int) -> RatingJob | None:
    """Run one job; a job that is already done does nothing the second time."""
    with transaction.atomic():
        job = RatingJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status == RatingJob.Status.DONE:
            return job
        job.status = RatingJob.Status.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])
        result: dict[str, Any] = {"host": socket.gethostname(), "pid": os.getpid()}
        job.result = result
        job.status = RatingJob.Status.DONE
        job.finished_at = timezone.now()
        job.save(update_fields=["result", "status", "finished_at"])
    return job


def rating_period_queue(
    *, round_id: int, by: AbstractBaseUser | AnonymousUser | None = None
) -> RatingJob:
    """A round (or club evening) closed: rate that period."""
    return rating_job_queue(kind=RatingJob.Kind.PERIOD, scope={"round": round_id}, by=by)


def rating_recompute_queue(
    *, round_id: int, by: AbstractBaseUser | AnonymousUser | None = None
) -> RatingJob:
    """An old result changed: recompute from that round on."""
    return rating_job_queue(kind=RatingJob.Kind.RECOMPUTE, scope={"from_round": round_id}, by=by)


def rating_evening_queue(
    *, tournament_id: int, by: AbstractBaseUser | AnonymousUser | None = None
) -> RatingJob:
    """A club evening closed: rate it as one period."""
    return rating_job_queue(kind=RatingJob.Kind.PERIOD, scope={"evening": tournament_id}, by=by)
