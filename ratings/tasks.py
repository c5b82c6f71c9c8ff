from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def rating_job_run_task(job_id: int) -> str:
    from .services import rating_job_run

    job = rating_job_run(job_id=job_id)
    return job.status if job else "missing"


@shared_task
def rating_jobs_sweep_task() -> list[int]:
    """Periodic (Celery beat, settings.CELERY_BEAT_SCHEDULE): re-queue stuck jobs."""
    from django.conf import settings

    from .services import rating_jobs_requeue

    return rating_jobs_requeue(older_than=settings.RATING_SWEEP_GRACE_SECONDS)
