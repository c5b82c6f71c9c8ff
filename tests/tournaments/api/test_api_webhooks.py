"""A club's webhooks through the API (docs/api.md): the same services as the club's
page; the secret in the answer to POST only; a test message's answer in the log; bad
input refused naming the field, nothing saved; only the club's organisers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.webhook_receiver import start_receiver, stop_receiver
from tournaments.models import WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.django_db
API = "/api/v1/clubs/kiel/webhooks/"


@pytest.fixture(autouse=True)
def _loopback(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True


@pytest.fixture
def receiver():
    found = start_receiver()
    yield found
    stop_receiver(found)


def test_an_organiser_adds_lists_tests_disables_and_deletes_an_endpoint(
    director, receiver, django_capture_on_commit_callbacks
):
    created = director.post(
        API,
        {"url": receiver.url, "events": ["round.closed", "round.published"], "description": "Bot"},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["secret"].startswith("whsec_") and body["active"] is True
    # In the list's order, whatever order they were sent in.
    assert body["events"] == ["round.published", "round.closed"]
    receiver.secret = body["secret"]
    listed = director.get(API).json()
    assert [e["id"] for e in listed] == [body["id"]]
    assert "secret" not in listed[0]
    with django_capture_on_commit_callbacks(execute=True):
        sent = director.post(f"{API}{body['id']}/test/")
    assert sent.status_code == 202 and sent.json()["event"] == "webhook.test"
    log = director.get(f"{API}{body['id']}/deliveries/").json()
    assert len(log) == 1 and log[0]["status"] == "delivered"
    assert log[0]["response_status"] == 200 and log[0]["response_excerpt"] == '{"ok": true}'
    assert log[0]["response_ms"] is not None and log[0]["attempts"] == 1
    assert receiver.received[0].valid
    assert receiver.received[0].headers["webhook-id"] == log[0]["message_id"]
    off = director.patch(f"{API}{body['id']}/", {"active": False}, format="json")
    assert off.status_code == 200 and off.json()["active"] is False
    assert director.delete(f"{API}{body['id']}/").status_code == 204
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"url": "gopher://example.org/", "events": ["round.closed"]}, "url"),
        ({"url": "https://example.org/" + "x" * 500, "events": ["round.closed"]}, "url"),
        ({"url": "https://example.org/", "events": []}, "events"),
        ({"url": "https://example.org/", "events": ["round.exploded"]}, "events"),
        ({"events": ["round.closed"]}, "url"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_nothing_is_saved(director, sent, field):
    answer = director.post(API, sent, format="json")
    assert answer.status_code == 400, answer.content
    # An item of a list is named by its index, as everywhere in the API ("events.0").
    assert answer.json()["error"]["field"].split(".")[0] == field, answer.json()
    assert not WebhookEndpoint.objects.exists()


def test_a_club_organiser_of_another_club_or_a_stranger_is_refused(director, receiver):
    endpoint_id = director.post(
        API, {"url": receiver.url, "events": ["round.closed"]}, format="json"
    ).json()["id"]
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    for method, path in [
        ("get", API),
        ("post", API),
        ("get", f"{API}{endpoint_id}/"),
        ("patch", f"{API}{endpoint_id}/"),
        ("delete", f"{API}{endpoint_id}/"),
        ("post", f"{API}{endpoint_id}/test/"),
        ("get", f"{API}{endpoint_id}/deliveries/"),
    ]:
        answer = getattr(stranger, method)(path, {"active": False}, format="json")
        assert answer.status_code == 403, (method, path, answer.status_code)
        assert "secret" not in answer.content.decode()
    assert APIClient().get(API).status_code in (401, 403)
    assert director.get("/api/v1/clubs/nowhere/webhooks/").status_code == 404
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.active and not WebhookDelivery.objects.exists()
    assert receiver.received == []
