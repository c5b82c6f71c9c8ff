"""The real thing: the organiser's "send a test" queues the delivery's task through
Redis, a separate `celery worker` sends it to a receiver that fails twice, and the
worker retries on its own clock with the delay doubled (1 s, then 2 s: the tests'
WEBHOOK_RETRY_BASE_SECONDS, tests/conftest.py) until the receiver takes it."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tests.webhook_receiver import start_receiver, stop_receiver
from tournaments.core.actor import Actor
from tournaments.models import WebhookDelivery
from tournaments.webhooks.services import webhook_endpoint_create

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_worker_retries_a_failing_receiver_with_back_off_until_it_answers(
    celery_worker_process, settings
):
    assert connection.vendor == "postgresql"
    # This process's settings (the worker has both from the environment: tests/conftest.py).
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 1
    receiver = start_receiver(statuses=[503, 500, 200])
    try:
        user = UserFactory()
        club = ClubFactory(slug="worker-hooks")
        club.organisers.add(user)
        endpoint, secret = webhook_endpoint_create(
            club=club, url=receiver.url, events=["round.closed"], by=Actor.director(user)
        )
        receiver.secret = secret
        client = Client()
        client.force_login(user)
        assert (
            client.post(reverse("webhook-test", args=[club.slug, endpoint.pk])).status_code == 302
        )
        delivery = WebhookDelivery.objects.get(endpoint=endpoint)
        deadline = time.monotonic() + 60
        while delivery.status == "pending" and time.monotonic() < deadline:
            time.sleep(0.1)
            delivery.refresh_from_db()
        assert delivery.status == "delivered", (delivery.attempts, delivery.error)
        assert delivery.attempts == 3 and delivery.response_status == 200
        assert [r.valid for r in receiver.received] == [True, True, True]
        gaps = [b.at - a.at for a, b in zip(receiver.received, receiver.received[1:], strict=False)]
        # 1 s, then 2 s (a little more: the worker's countdown and the broker's round trip).
        assert 1.0 <= gaps[0] < 1.9 + 1.0 and 2.0 <= gaps[1] < 3.9, gaps
        assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    finally:
        stop_receiver(receiver)
