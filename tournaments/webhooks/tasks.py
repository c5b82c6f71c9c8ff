"""The worker's side of the webhooks: thin tasks over services.py, which queues them by
name (WEBHOOK_SEND_TASK) so that it never imports this module."""

from __future__ import annotations

from celery import shared_task

from tournaments.webhooks.services import (
    WEBHOOK_SEND_TASK,
    webhook_deliveries_sweep,
    webhook_delivery_attempt,
)


@shared_task(name=WEBHOOK_SEND_TASK, acks_late=True)
def webhook_delivery_send_task(delivery_id: int) -> str:
    delivery = webhook_delivery_attempt(delivery_id=delivery_id)
    return delivery.status if delivery else "missing"


@shared_task(name="tournaments.webhooks.tasks.webhook_deliveries_sweep_task")
def webhook_deliveries_sweep_task() -> list[int]:
    """Periodic (Celery beat, settings.CELERY_BEAT_SCHEDULE): send what is due."""
    return webhook_deliveries_sweep()
