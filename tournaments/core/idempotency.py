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
from collections.abc import Mapping, Sequence
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
    answer = _answer_of(
        IdempotencyKey.objects.filter(key=key).first(), Claim(key, path, request_hash), actor
    )
    if isinstance(answer, ServiceError):
        raise answer
    return answer


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


@dataclass(frozen=True)
class Claim:
    """One key of a batch to claim (`idempotency_claim_many`)."""

    key: str
    path: str
    request_hash: str


def idempotency_claim_many(
    claims: Sequence[Claim], *, by: Actor
) -> list[Stored | ServiceError | None]:
    """`idempotency_claim` for many keys of one actor at once (the items of a batch, of
    well-formed keys), inside the caller's transaction: for each, None (claimed: run it,
    then `idempotency_store_many`), the stored answer of the first request with it, or
    its refusal (a KeyMismatch, or the ConflictError of a key still being processed).
    On PostgreSQL one statement claims every free key (INSERT … ON CONFLICT DO NOTHING
    RETURNING; a key another transaction holds uncommitted waits for it up to ``WAIT``,
    as a single claim does) and one reads the taken ones, instead of five statements a
    key. A key twice in ``claims`` is claimed once (the caller answers the second)."""
    if connection.vendor != "postgresql":
        return [_claim_one(c, by) for c in claims]
    if not claims:
        return []
    actor = scope(by)
    now = timezone.now()
    keys = [c.key for c in claims]
    table = IdempotencyKey._meta.db_table
    IdempotencyKey.objects.filter(key__in=keys, created_at__lt=now - LIFETIME).delete()
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{WAIT}'")
            cursor.execute(
                f"INSERT INTO {table} "  # noqa: S608 - the model's own table name
                "(key, actor, path, created_at, request_hash, status, headers, body, compacted) "
                "SELECT k, %s, p, %s, h, NULL, '{}'::jsonb, ''::bytea, false "
                "FROM unnest(%s::text[], %s::text[], %s::text[]) AS u(k, p, h) "
                "ON CONFLICT (key) DO NOTHING RETURNING key",
                [
                    actor,
                    now,
                    keys,
                    [c.path[:300] for c in claims],
                    [c.request_hash for c in claims],
                ],
            )
            claimed = {row[0] for row in cursor.fetchall()}
            cursor.execute("SET LOCAL lock_timeout TO DEFAULT")
    except OperationalError:
        busy = ConflictError(
            _("the first request with this key is still being processed; try again shortly"),
            field=FIELD,
        )
        return [busy for _c in claims]
    taken = {
        row.key: row
        for row in IdempotencyKey.objects.filter(key__in=[k for k in keys if k not in claimed])
    }
    return [None if c.key in claimed else _answer_of(taken.get(c.key), c, actor) for c in claims]


def _claim_one(claim: Claim, by: Actor) -> Stored | ServiceError | None:
    try:
        return idempotency_claim(
            key=claim.key, path=claim.path, request_hash=claim.request_hash, by=by
        )
    except ServiceError as exc:
        return exc


def _answer_of(row: IdempotencyKey | None, claim: Claim, actor: str) -> Stored | ServiceError:
    """A taken key's stored answer, or why it is refused: one door for a single claim
    (`idempotency_claim` raises the refusal) and a batch's (`idempotency_claim_many`)."""
    if row is None:
        # Swept between the insert and this read: extremely unlikely; the sender retries.
        return ConflictError(_("try again"), field=FIELD)
    if row.actor != actor or row.path != claim.path[:300]:
        return KeyMismatch(
            _("this idempotency key was used for another request; send a new key"),
            field=FIELD,
        )
    # An empty hash: a key stored before hashes were kept (it expires with its week).
    if row.request_hash and row.request_hash != claim.request_hash:
        return KeyMismatch(
            _("this idempotency key was sent with another request body; send a new key"),
            field=FIELD,
        )
    if row.status is None:
        return ConflictError(
            _("the first request with this key is still being processed; try again shortly"),
            field=FIELD,
        )
    return Stored(row.status, dict(row.headers), bytes(row.body), row.compacted)


def idempotency_store_many(answers: Mapping[str, Stored], *, by: Actor) -> None:
    """`idempotency_store` for the keys of a batch, in one statement."""
    if any(len(a.body) > MAX_BODY for a in answers.values()):
        raise ValueError(f"a stored answer keeps at most {MAX_BODY} bytes")
    rows = list(IdempotencyKey.objects.filter(key__in=list(answers), actor=scope(by)))
    for row in rows:
        answer = answers[row.key]
        row.status = answer.status
        row.headers = dict(answer.headers)
        row.body = answer.body
        row.compacted = answer.compacted
    IdempotencyKey.objects.bulk_update(rows, ["status", "headers", "body", "compacted"])


def idempotency_release(keys: Sequence[str], *, by: Actor) -> None:
    """Free keys claimed by this request and not answered (their items were not run):
    they are claimed again when sent again."""
    IdempotencyKey.objects.filter(key__in=list(keys), actor=scope(by), status__isnull=True).delete()
