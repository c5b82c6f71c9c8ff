from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def rating_job_run_task(job_id: int) -> str:
    from .services import rating_job_run

    job = rating_job_run(job_id=job_id)
    return job.status if job else "missing"
