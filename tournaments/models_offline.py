"""What the venue without signal needs on the server (docs/offline.md): the answers to
requests sent with an ``Idempotency-Key``, so that a queue that sends an item again
(a retry after a lost answer, a reload) is answered once and writes once."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class IdempotencyKey(models.Model):
    """The first request sent with ``key`` and its final answer, compact
    (services/idempotency.py). ``status`` stays empty while that request is being
    processed; a key belongs to one actor, one path and one request body, and is kept
    7 days."""

    # Unique across actors: a key sent by another actor (or to another path) is refused,
    # never answered with someone else's stored answer.
    key = models.CharField(max_length=100, unique=True)
    # "user:<id>", "seat:<id>" (a player's link) or "command".
    actor = models.CharField(max_length=40)
    path = models.CharField(max_length=300)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # SHA-256 of the method, path and body: the same key with another body is a 422.
    # Empty for a key stored before the hash was kept (gone after its 7 days).
    request_hash = models.CharField(max_length=64, default="", blank=True)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    # What a replay repeats: a few hundred bytes at most, never the whole game or page
    # (10,000 keys of one link once stored 23.2 MB). The headers kept (Content-Type,
    # Location, htmx's) and the body when it was that small, else ``compacted`` and the
    # outcome in its place (tournaments/results/offline.py).
    headers = models.JSONField(default=dict, blank=True)
    body = models.BinaryField(default=b"", blank=True)
    compacted = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.key} ({self.actor} {self.path})"
