"""Writes for a club's webhooks (docs/league.md, "Webhooks"): the organisers' endpoints,
and the outbox of deliveries with its retries.

The outbox: `webhook_event_queue` writes a `WebhookDelivery` row in the transaction of
the change it tells of (the receivers run inside the services' transactions), and its
Celery task is sent by name after the commit. If the broker is down, or this process
dies before sending, the row stays pending and the beat's sweep
(`webhook_deliveries_sweep`) sends it, as ratings/services.py does for rating jobs. An
attempt that fails is scheduled again by the server's clock, `retry_delay` later,
until WEBHOOK_MAX_ATTEMPTS; the task is sent with that countdown and the sweep catches
one that was lost. The receiver's own clock is never read."""

from __future__ import annotations

import datetime as dt
import json
import logging
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from celery import signature
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_organise
from tournaments.models import Club, WebhookDelivery, WebhookEndpoint, WebhookEvent
from tournaments.webhooks import signing, transport

logger = logging.getLogger("tournaments.webhooks")
# The worker's task, sent by its name: tasks.py imports this module, never the reverse.
WEBHOOK_SEND_TASK = "tournaments.webhooks.tasks.webhook_delivery_send_task"
# The test button's message type (not an event an endpoint chooses).
TEST_EVENT = "webhook.test"
# How many endpoints a club may have.
MAX_ENDPOINTS = 10


# An attempt holds its delivery this long (the sweep and a second task leave it alone);
# longer than any attempt can take (transport.post: twice the timeout at most).
def _lease() -> dt.timedelta:
    return dt.timedelta(seconds=3 * float(settings.WEBHOOK_TIMEOUT_SECONDS) + 5)


def retry_delay(attempts: int) -> float:
    """Seconds before the next attempt after `attempts` failed ones: exponential,
    WEBHOOK_RETRY_BASE_SECONDS doubled each time (30 s, 1 min, 2 min, 4 min, ... by
    default), at most 6 hours."""
    base = float(settings.WEBHOOK_RETRY_BASE_SECONDS)
    return min(base * 2 ** max(attempts - 1, 0), 6 * 3600.0)


def _require_organiser(by: Actor, club: Club) -> None:
    require_actor(by)
    if not can_organise(by.permission_user, club):
        raise PermissionDenied("only this club's organisers manage its webhooks")


def _events(events: Iterable[str]) -> list[str]:
    chosen = list(dict.fromkeys(events))
    known = set(WebhookEvent.values)
    if not chosen:
        raise ServiceError(_("choose at least one event"), field="events")
    unknown = [e for e in chosen if e not in known]
    if unknown:
        raise ServiceError(
            _("unknown event %(event)s") % {"event": unknown[0][:40]}, field="events"
        )
    # The events in their list's order, whatever order they came in.
    return [e for e in WebhookEvent.values if e in chosen]


def webhook_endpoint_create(
    *, club: Club, url: str, events: Sequence[str], description: str = "", by: Actor
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint of the club and its secret, which the caller shows once."""
    _require_organiser(by, club)
    url = (url or "").strip()
    if not url:
        raise ServiceError(_("enter the address to send to"), field="url")
    if len(url) > 500:
        raise ServiceError(_("the address is longer than 500 characters"), field="url")
    refusal = transport.url_refusal(url)
    if refusal:
        raise ServiceError(refusal, field="url")
    chosen = _events(events)
    description = (description or "").strip()
    if len(description) > 120:
        raise ServiceError(_("the description is longer than 120 characters"), field="description")
    secret = signing.secret_new()
    with transaction.atomic():
        # Locked: two organisers adding at once cannot pass the limit together.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if WebhookEndpoint.objects.filter(club=club).count() >= MAX_ENDPOINTS:
            raise ServiceError(
                _("a club has at most %(n)s webhook endpoints") % {"n": MAX_ENDPOINTS},
                field="url",
            )
        endpoint = WebhookEndpoint.objects.create(
            club=club,
            url=url,
            events=chosen,
            description=description,
            secret=secret,
            created_by=by.audit_user,
        )
    return endpoint, secret


def webhook_endpoint_set_active(
    *, endpoint: WebhookEndpoint, active: bool, by: Actor
) -> WebhookEndpoint:
    """Disable an endpoint (it keeps its log and is sent nothing new; its pending
    messages wait) or enable it again (they are sent at once)."""
    _require_organiser(by, endpoint.club)
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=active)
        endpoint.active = active
        if active:
            due = list(
                WebhookDelivery.objects.filter(
                    endpoint=endpoint, status=WebhookDelivery.Status.PENDING
                ).values_list("pk", flat=True)
            )
            WebhookDelivery.objects.filter(pk__in=due).update(next_attempt_at=timezone.now())
            transaction.on_commit(lambda: _publish_all(due))
    return endpoint


def webhook_endpoint_delete(*, endpoint: WebhookEndpoint, by: Actor) -> None:
    """The endpoint and its log go; nothing more is sent to it."""
    _require_organiser(by, endpoint.club)
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=endpoint.pk).delete()


def webhook_test_send(*, endpoint: WebhookEndpoint, by: Actor) -> WebhookDelivery:
    """The "send a test" button: a `webhook.test` message to this endpoint alone,
    signed and retried as any other (also to a disabled one: testing it is why)."""
    _require_organiser(by, endpoint.club)
    with transaction.atomic():
        delivery = _delivery(
            endpoint,
            TEST_EVENT,
            {"club": endpoint.club.slug, "endpoint": endpoint.pk},
            coalesce_key="",
        )
        transaction.on_commit(lambda: _publish(delivery.pk))
    return delivery


def _message(event: str, data: dict[str, Any]) -> dict[str, Any]:
    # The Standard Webhooks payload shape: type, timestamp, data.
    return {"type": event, "timestamp": timezone.now().isoformat(), "data": data}


def _delivery(
    endpoint: WebhookEndpoint, event: str, data: dict[str, Any], coalesce_key: str
) -> WebhookDelivery:
    return WebhookDelivery.objects.create(
        endpoint=endpoint,
        message_id=f"msg_{uuid.uuid4().hex}",
        event=event,
        payload=_message(event, data),
        coalesce_key=coalesce_key,
        next_attempt_at=timezone.now(),
    )


def webhook_event_queue(
    *,
    endpoints: Iterable[WebhookEndpoint],
    event: str,
    data: dict[str, Any],
    coalesce_key: str = "",
    by: Actor,
) -> list[int]:
    """One message of this event to each of these endpoints, in the caller's
    transaction (the outbox), sent after its commit. With a `coalesce_key`, an endpoint
    that still has a message of that key not yet attempted has that message's data
    replaced instead (a burst of results is one `standings.changed` with the latest
    version). The ids of the deliveries written or replaced."""
    require_actor(by)
    ids: list[int] = []
    with transaction.atomic():
        for endpoint in endpoints:
            waiting = None
            if coalesce_key:
                waiting = (
                    WebhookDelivery.objects.select_for_update()
                    .filter(
                        endpoint=endpoint,
                        coalesce_key=coalesce_key,
                        status=WebhookDelivery.Status.PENDING,
                        attempts=0,
                    )
                    .first()
                )
            if waiting is not None:
                waiting.payload = _message(event, data)
                waiting.save(update_fields=["payload"])
                continue
            ids.append(_delivery(endpoint, event, data, coalesce_key).pk)
        if ids:
            sent = list(ids)
            transaction.on_commit(lambda: _publish_all(sent))
    return ids


def _publish(delivery_id: int, countdown: float | None = None) -> bool:
    """Send the delivery's task to the broker. The committed row is the outbox: if the
    broker is unreachable the row stays pending and the sweep sends it."""
    try:
        signature(WEBHOOK_SEND_TASK, args=(delivery_id,)).apply_async(countdown=countdown)
    except Exception as exc:  # noqa: BLE001 - any broker failure; the sweep catches up
        logger.warning("webhook delivery %s stays pending for the sweep: %s", delivery_id, exc)
        return False
    return True


def _publish_all(ids: Iterable[int]) -> None:
    for delivery_id in ids:
        _publish(delivery_id)


def _body(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def webhook_delivery_attempt(*, delivery_id: int) -> WebhookDelivery | None:
    """One attempt of a delivery that is due (the worker's task; running it for one not
    due, delivered or given up does nothing, so a task sent twice is harmless).

    The row is claimed in a short transaction (its attempt counted, a lease set), the
    request is made outside any transaction, and its answer written in another; a failed
    attempt is scheduled again by the server's clock."""
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .select_related("endpoint")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
            return delivery
        endpoint = delivery.endpoint
        disabled = not endpoint.active and delivery.event != TEST_EVENT
        if disabled or (delivery.next_attempt_at is not None and delivery.next_attempt_at > now):
            return delivery
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.next_attempt_at = now + _lease()
        delivery.save(update_fields=["attempts", "last_attempt_at", "next_attempt_at"])
    body = _body(delivery.payload)
    answer = transport.post(
        url=endpoint.url,
        headers=signing.headers(
            secret=endpoint.secret,
            message_id=delivery.message_id,
            timestamp=int(now.timestamp()),
            body=body,
        ),
        body=body,
    )
    with transaction.atomic():
        delivery.response_status = answer.status
        delivery.response_ms = answer.ms
        delivery.response_excerpt = answer.excerpt
        delivery.error = answer.error
        retry: float | None = None
        if answer.ok:
            delivery.status = WebhookDelivery.Status.DELIVERED
            delivery.next_attempt_at = None
        elif delivery.attempts >= int(settings.WEBHOOK_MAX_ATTEMPTS):
            delivery.status = WebhookDelivery.Status.FAILED
            delivery.next_attempt_at = None
        else:
            retry = retry_delay(delivery.attempts)
            # From the server's clock once the answer is in, not from the attempt's start.
            delivery.next_attempt_at = timezone.now() + dt.timedelta(seconds=retry)
        delivery.save(
            update_fields=[
                "status",
                "next_attempt_at",
                "response_status",
                "response_ms",
                "response_excerpt",
                "error",
            ]
        )
        if retry is not None:
            delivery_pk = delivery.pk
            transaction.on_commit(lambda: _publish(delivery_pk, countdown=retry))
    return delivery


def webhook_deliveries_sweep(*, limit: int = 500) -> list[int]:
    """The sweep (Celery beat, WEBHOOK_SWEEP_SECONDS): send the task of every pending
    delivery that is due by the server's clock (its task lost with a broker that was
    down, or never sent); forget finished deliveries older than WEBHOOK_LOG_DAYS. Oldest
    first."""
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            WebhookDelivery.objects.filter(
                Q(next_attempt_at__lte=now) | Q(next_attempt_at__isnull=True),
                status=WebhookDelivery.Status.PENDING,
            )
            .filter(Q(endpoint__active=True) | Q(event=TEST_EVENT))
            .order_by("next_attempt_at", "pk")
            .values_list("pk", flat=True)[:limit]
        )
        old = now - dt.timedelta(days=int(settings.WEBHOOK_LOG_DAYS))
        WebhookDelivery.objects.filter(created_at__lt=old).exclude(
            status=WebhookDelivery.Status.PENDING
        ).delete()
    sent = [pk for pk in ids if _publish(pk)]
    if sent:
        logger.info("sweep: sent webhook deliveries %s", sent)
    return sent
