"""The worker's side of the rating jobs: thin tasks over ratings/services.py, which
queues them by name (RATING_JOB_RUN_TASK) so that it never imports this module."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .services import RATING_JOB_RUN_TASK, rating_job_run, rating_jobs_requeue


@shared_task(name=RATING_JOB_RUN_TASK, acks_late=True)
def rating_job_run_task(job_id: int) -> str:
    job = rating_job_run(job_id=job_id)
    return job.status if job else "missing"


@shared_task
def rating_jobs_sweep_task() -> list[int]:
    """Periodic (Celery beat, settings.CELERY_BEAT_SCHEDULE): re-queue stuck jobs."""
    return rating_jobs_requeue(older_than=settings.RATING_SWEEP_GRACE_SECONDS)
