"""The tournaments app's periodic tasks (Celery beat, settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from tournaments.core.actor import Actor
from tournaments.core.idempotency import idempotency_sweep
from tournaments.results.services.no_show import no_show_sweep


@shared_task
def idempotency_sweep_task() -> int:
    """Delete the idempotency keys older than 7 days (docs/offline.md)."""
    return idempotency_sweep(by=Actor.command())


@shared_task
def no_show_sweep_task() -> int:
    """Forfeit the no-shows of the events that forfeit them automatically
    (docs/results.md, "No-shows"); running twice forfeits nobody twice."""
    return no_show_sweep(by=Actor.command())
