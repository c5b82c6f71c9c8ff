"""A club's webhooks (docs/league.md, "Webhooks"): the addresses an organiser registers
for the club's events, and each message sent to one of them.

A `WebhookDelivery` row is the outbox: it is written in the transaction of the change it
tells of, its Celery task is sent after the commit, and the row keeps the schedule of its
retries and the last answer, so a broker that is down, a worker that dies or a receiver
that fails loses nothing (tournaments/webhooks/services.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class WebhookEvent(models.TextChoices):
    """What a club can be told of; the names are the `type` of the JSON sent."""

    ROUND_PUBLISHED = "round.published", _("A round was published")
    RESULT_CONFIRMED = "result.confirmed", _("A result was confirmed")
    ROUND_CLOSED = "round.closed", _("A round was closed")
    STANDINGS_CHANGED = "standings.changed", _("The standings changed")
    RATINGS_UPDATED = "ratings.updated", _("The ratings were updated")


class WebhookEndpoint(models.Model):
    """An address of the club's that is sent the events it chose, signed with its own
    secret (`whsec_` and the base64 of 32 random bytes, shown once on creation)."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    description = models.CharField(max_length=120, blank=True)
    # A list of WebhookEvent values, at least one.
    events = models.JSONField(default=list)
    secret = models.CharField(max_length=100)
    # Disabled: kept with its log, sent nothing new until enabled again.
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One message to one endpoint, with its retries: the same `message_id` (the
    `webhook-id` header) on every attempt, so a receiver can drop a repeat."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    message_id = models.CharField(max_length=40, unique=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    # Messages of the same key still pending are one message (the standings of one event:
    # a burst of results is told once, with the latest version); empty: never merged.
    coalesce_key = models.CharField(max_length=60, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    # The server's clock decides when the next attempt is due (never the receiver's).
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # The last answer: its HTTP status (none when no answer came), how long it took, the
    # start of its body (bounded), or why there was no answer.
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_ms = models.PositiveIntegerField(null=True, blank=True)
    response_excerpt = models.CharField(max_length=500, blank=True, default="")
    error = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["endpoint", "-created_at"], name="webhook_delivery_log"),
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status="pending"),
                name="webhook_delivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.message_id}"
