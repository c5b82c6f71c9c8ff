from __future__ import annotations

from django.conf import settings
from django.db import models


class RatingJob(models.Model):
    """One run of the rating computation, queued after a period closes or history changes.

    The row is written before the task is queued (on commit), so the worker always finds
    it; its status tells the pages whether ratings are up to date.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    class Kind(models.TextChoices):
        PERIOD = "period", "rate one period"
        RECOMPUTE = "recompute", "recompute from a point in history"
        PING = "ping", "check that a worker answers"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    scope = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"
