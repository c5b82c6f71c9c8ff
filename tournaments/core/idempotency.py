"""Idempotency keys (docs/offline.md), as the IETF draft on the ``Idempotency-Key``
header has them: a page's offline queue sends each item with a key; the first request
that completes with it (status below 500) has a compact answer stored with a hash of
the request (method, path, body), and every later request with the same key and the
same request gets that answer again, writing nothing. The same key with another
request (another body, path or actor) is refused (KeyMismatch, a 422).

The key is claimed inside the request's own transaction (tournaments/results/offline.py runs
the view inside it): a second request with the same key waits on the unique index
until the first commits, then reads its answer; if the first failed (rolled back), the
second claims the key and runs. A claim that waits longer than ``WAIT`` is told the
first is still being processed (a ConflictError, 409). Keys are kept ``LIFETIME``;
`idempotency_sweep` (Celery beat, settings.CELERY_BEAT_SCHEDULE) deletes older ones,
and an expired key is claimed afresh."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.models import IdempotencyKey

KEY = re.compile(r"[A-Za-z0-9_-]{8,100}")
LIFETIME = timedelta(days=7)
# How long a duplicate waits for the first request with its key (PostgreSQL only).
WAIT = "10s"
FIELD = "Idempotency-Key"
# The most a stored answer's body keeps (tournaments/results/offline.py compacts a bigger one).
MAX_BODY = 512


class KeyMismatch(ServiceError):
    """A key sent again by another actor, to another path or with another body
    (answered 422)."""


@dataclass(frozen=True)
class Stored:
    status: int
    headers: Mapping[str, str]
    body: bytes
    # The first answer's body was too big to keep: ``body`` is its outcome instead.
    compacted: bool = False


def scope(by: Actor) -> str:
    """Whose key it is: the player's seat (her link), the signed-in user, or a command."""
    if by.seat is not None:
        return f"seat:{by.seat.pk}"
    if by.user is not None:
        return f"user:{by.user.pk}"
    return "command"


def check_key(key: str) -> None:
    if not KEY.fullmatch(key):
        raise ServiceError(_("an idempotency key is 8 to 100 letters, digits, - or _"), field=FIELD)


def idempotency_claim(*, key: str, path: str, request_hash: str, by: Actor) -> Stored | None:
    """Claim ``key`` for this request (None: run it, then `idempotency_store`), or the
    stored answer of the first request with it. Call inside the transaction that also
    holds the request's writes, so that the claim and the writes commit together."""
    check_key(key)
    actor = scope(by)
    IdempotencyKey.objects.filter(key=key, created_at__lt=timezone.now() - LIFETIME).delete()
    postgres = connection.vendor == "postgresql"
    try:
        with transaction.atomic():
            if postgres:
                with connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL lock_timeout = '{WAIT}'")
            IdempotencyKey.objects.create(
                key=key, actor=actor, path=path[:300], request_hash=request_hash
            )
            if postgres:
                with connection.cursor() as cursor:
                    # The view's own locks wait as long as they always did.
                    cursor.execute("SET LOCAL lock_timeout TO DEFAULT")
        return None
    except IntegrityError:
        pass  # the key is taken: a duplicate, answered below
    except OperationalError:
        raise ConflictError(
            _("the first request with this key is still being processed; try again shortly"),
            field=FIELD,
        ) from None
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout TO DEFAULT")
    row = IdempotencyKey.objects.filter(key=key).first()
    if row is None:
        # Swept between the insert and this read: extremely unlikely; the sender retries.
        raise ConflictError(_("try again"), field=FIELD)
    if row.actor != actor or row.path != path[:300]:
        raise KeyMismatch(
            _("this idempotency key was used for another request; send a new key"),
            field=FIELD,
        )
    # An empty hash: a key stored before hashes were kept (it expires with its week).
    if row.request_hash and row.request_hash != request_hash:
        raise KeyMismatch(
            _("this idempotency key was sent with another request body; send a new key"),
            field=FIELD,
        )
    if row.status is None:
        raise ConflictError(
            _("the first request with this key is still being processed; try again shortly"),
            field=FIELD,
        )
    return Stored(row.status, dict(row.headers), bytes(row.body), row.compacted)


def idempotency_store(*, key: str, answer: Stored, by: Actor) -> None:
    """The final answer of the request that claimed ``key`` (status below 500), compact:
    a body over ``MAX_BODY`` is a caller's bug, refused rather than stored."""
    if len(answer.body) > MAX_BODY:
        raise ValueError(f"a stored answer keeps at most {MAX_BODY} bytes")
    IdempotencyKey.objects.filter(key=key, actor=scope(by)).update(
        status=answer.status,
        headers=dict(answer.headers),
        body=answer.body,
        compacted=answer.compacted,
    )


def idempotency_sweep(*, by: Actor) -> int:
    """Delete the keys older than ``LIFETIME``; returns how many."""
    deleted, _counts = IdempotencyKey.objects.filter(
        created_at__lt=timezone.now() - LIFETIME
    ).delete()
    return deleted
