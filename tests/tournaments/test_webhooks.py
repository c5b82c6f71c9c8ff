"""A club's webhooks (issue 46, part 4; docs/league.md "Webhooks"): a real receiver on
loopback checks every message's Standard Webhooks signature; a receiver that fails twice
is retried on the server's clock with the delay doubled, and the log keeps its answers;
only the club's organisers manage endpoints; a bad address is refused naming `url`."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tests.webhook_receiver import start_receiver, stop_receiver
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, WebhookDelivery, WebhookEndpoint
from tournaments.results.services.results import game_record_out
from tournaments.webhooks import signing
from tournaments.webhooks.services import (
    retry_delay,
    webhook_deliveries_sweep,
    webhook_endpoint_create,
    webhook_endpoint_set_active,
    webhook_test_send,
)

pytestmark = pytest.mark.django_db
BY = Actor.command()
ALL = [
    "round.published",
    "result.confirmed",
    "round.closed",
    "standings.changed",
    "ratings.updated",
]


@pytest.fixture(autouse=True)
def _loopback(settings):
    # The tests' receivers listen on loopback, which production refuses.
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 1
    settings.WEBHOOK_MAX_ATTEMPTS = 4
    settings.WEBHOOK_TIMEOUT_SECONDS = 2


@pytest.fixture
def receiver():
    found = start_receiver()
    yield found
    stop_receiver(found)


@pytest.fixture
def organiser():
    user = UserFactory()
    club = ClubFactory(slug="hooks")
    club.organisers.add(user)
    return user, club


def _endpoint(club, user, url: str, events=ALL) -> tuple[WebhookEndpoint, str]:
    return webhook_endpoint_create(club=club, url=url, events=events, by=Actor.director(user))


def test_a_published_round_a_result_and_the_close_reach_the_receiver_signed(
    organiser, receiver, django_capture_on_commit_callbacks
):
    user, club = organiser
    endpoint, secret = _endpoint(club, user, receiver.url)
    receiver.secret = secret
    tournament = tournament_with_players(4, club=club, rounds_planned=1)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_pair_next(tournament=tournament, by=BY)
        round_publish(round=round_, by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        for game in Game.objects.filter(table__round=round_):
            game_record_out(game=game, out=[3, 0], by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=BY)

    types = [r.json["type"] for r in receiver.received]
    assert all(r.valid for r in receiver.received), [r.headers for r in receiver.received]
    assert types.count("round.published") == 1 and types.count("round.closed") == 1
    # One message per game of the round's matches.
    assert types.count("result.confirmed") == Game.objects.filter(table__round=round_).count()
    assert "standings.changed" in types
    # The round's rating job ran (in-process here) and the ratings told the club.
    rated = [r.json for r in receiver.received if r.json["type"] == "ratings.updated"]
    assert len(rated) == 1 and rated[0]["data"]["club"] == club.slug
    published = next(r.json for r in receiver.received if r.json["type"] == "round.published")
    assert published["data"]["tournament"]["slug"] == tournament.slug
    assert published["data"]["round"]["number"] == 1
    result = next(r.json for r in receiver.received if r.json["type"] == "result.confirmed")
    assert sorted(s["out"] for s in result["data"]["seats"]) == [0, 3]
    # Each message its own id, the headers the specification names.
    ids = [r.headers["webhook-id"] for r in receiver.received]
    assert len(set(ids)) == len(ids) and all(i.startswith("msg_") for i in ids)
    assert (
        WebhookDelivery.objects.filter(endpoint=endpoint).exclude(status="delivered").count() == 0
    )
    log = WebhookDelivery.objects.filter(endpoint=endpoint).first()
    assert log.response_status == 200 and log.response_excerpt == '{"ok": true}'
    assert log.response_ms is not None


def test_a_receiver_with_another_secret_refuses_every_message(organiser, receiver):
    user, club = organiser
    endpoint, _secret = _endpoint(club, user, receiver.url)
    receiver.secret = signing.secret_new()  # not the endpoint's
    delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    from tournaments.webhooks.services import webhook_delivery_attempt

    webhook_delivery_attempt(delivery_id=delivery.pk)
    assert len(receiver.received) == 1 and not receiver.received[0].valid
    delivery.refresh_from_db()
    assert delivery.response_status == 401 and delivery.status == "pending"


def test_the_signature_is_the_specifications_example():
    """The example of the Standard Webhooks specification (its test vector)."""
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"test": 2432232314}'
    sig = signing.signature(
        secret=secret, message_id="msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp=1614265330, body=body
    )
    assert sig == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    headers = {"webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330"}
    assert signing.verify(
        secret=secret, headers={**headers, "webhook-signature": sig}, body=body, now=1614265330
    )
    assert not signing.verify(
        secret=secret,
        headers={**headers, "webhook-signature": sig},
        body=body + b" ",
        now=1614265330,
    )
    # Too old by the receiver's clock: refused.
    assert not signing.verify(
        secret=secret,
        headers={**headers, "webhook-signature": sig},
        body=body,
        now=1614265330 + 301,
    )


def test_a_receiver_that_fails_twice_is_retried_on_the_servers_clock_with_the_delay_doubled(
    organiser, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    user, club = organiser
    endpoint, secret = _endpoint(club, user, receiver.url)
    receiver.secret = secret
    receiver.statuses = [503, 500, 200]
    receiver.answer = b"busy " * 400  # longer than the log keeps
    with django_capture_on_commit_callbacks(execute=True):
        delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    delivery.refresh_from_db()
    assert len(receiver.received) == 1
    assert delivery.status == "pending" and delivery.attempts == 1
    assert delivery.response_status == 503 and len(delivery.response_excerpt) == 500
    first_wait = (delivery.next_attempt_at - delivery.last_attempt_at).total_seconds()
    assert retry_delay(1) == 1.0 and 1.0 <= first_wait < 1.0 + 2  # + the attempt's time
    # Not due yet by the server's clock: the sweep sends nothing.
    with django_capture_on_commit_callbacks(execute=True):
        webhook_deliveries_sweep()
    assert len(receiver.received) == 1

    real_now = timezone.now

    def clock_at(moment: dt.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: moment)

    clock_at(delivery.next_attempt_at + dt.timedelta(milliseconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        webhook_deliveries_sweep()
    delivery.refresh_from_db()
    assert len(receiver.received) == 2 and delivery.attempts == 2
    assert delivery.response_status == 500 and delivery.status == "pending"
    second_wait = (delivery.next_attempt_at - delivery.last_attempt_at).total_seconds()
    assert retry_delay(2) == 2.0 and second_wait == pytest.approx(2.0)
    # Half-way: still waiting.
    clock_at(delivery.last_attempt_at + dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        webhook_deliveries_sweep()
    assert len(receiver.received) == 2
    clock_at(delivery.next_attempt_at)
    with django_capture_on_commit_callbacks(execute=True):
        webhook_deliveries_sweep()
    monkeypatch.setattr(timezone, "now", real_now)
    delivery.refresh_from_db()
    assert len(receiver.received) == 3 and delivery.status == "delivered"
    assert delivery.attempts == 3 and delivery.next_attempt_at is None
    # The same message each time (one id, so a receiver can drop a repeat), each signed
    # again with its own timestamp.
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    assert all(r.valid for r in receiver.received)
    assert [r.json for r in receiver.received] == [receiver.received[0].json] * 3


def test_a_receiver_that_never_answers_well_is_given_up_after_the_last_attempt(
    organiser, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    user, club = organiser
    endpoint, secret = _endpoint(club, user, receiver.url)
    receiver.secret = secret
    receiver.statuses = [500]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    for _ in range(5):
        delivery.refresh_from_db()
        if delivery.next_attempt_at is None:
            break
        moment = delivery.next_attempt_at
        monkeypatch.setattr(timezone, "now", lambda moment=moment: moment)
        with django_capture_on_commit_callbacks(execute=True):
            webhook_deliveries_sweep()
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts == 4
    assert len(receiver.received) == 4


def test_a_receiver_that_is_not_there_is_logged_with_the_reason(organiser, receiver):
    user, club = organiser
    url = receiver.url
    stop_receiver(receiver)
    receiver.server = None
    endpoint, _ = _endpoint(club, user, url)
    delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    from tournaments.webhooks.services import webhook_delivery_attempt

    webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.response_status is None and "Connection" in delivery.error


def test_a_redirect_is_an_answer_and_never_followed(organiser, receiver):
    user, club = organiser
    receiver.statuses = [302]
    endpoint, secret = _endpoint(club, user, receiver.url)
    receiver.secret = secret
    delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    from tournaments.webhooks.services import webhook_delivery_attempt

    webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.response_status == 302 and delivery.status == "pending"
    assert len(receiver.received) == 1


def test_standings_changes_waiting_to_be_sent_are_one_message_with_the_latest_version(
    organiser, receiver
):
    user, club = organiser
    _endpoint(club, user, receiver.url, events=["standings.changed"])
    tournament = tournament_with_players(4, club=club)
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)  # no commit callbacks run: nothing sent yet
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 0], by=BY)
    waiting = WebhookDelivery.objects.filter(event="standings.changed")
    assert waiting.count() == 1
    tournament.refresh_from_db()
    assert waiting.get().payload["data"]["standings_version"] == tournament.standings_version


def test_a_disabled_endpoint_is_sent_nothing_new(organiser, receiver):
    user, club = organiser
    endpoint, _ = _endpoint(club, user, receiver.url)
    webhook_endpoint_set_active(endpoint=endpoint, active=False, by=Actor.director(user))
    tournament = tournament_with_players(4, club=club)
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    assert not WebhookDelivery.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/hook",
        "javascript:alert(1)",
        "http://user:pw@example.org/",
        "not an address",
        "http://10.1.2.3/hook",
        "http://127.0.0.1:9/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://169.254.169.254/latest/meta-data/",
    ],
)
def test_a_bad_or_private_address_is_refused_naming_url_and_nothing_is_saved(
    organiser, settings, url
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    user, club = organiser
    client = Client()
    client.force_login(user)
    answer = client.post(
        reverse("webhook-create", args=[club.slug]),
        {"url": url, "events": ["round.published"]},
    )
    assert answer.status_code == 400
    assert answer.context["form"].errors.get("url"), answer.context["form"].errors
    api = client.post(
        f"/api/v1/clubs/{club.slug}/webhooks/",
        json.dumps({"url": url, "events": ["round.published"]}),
        content_type="application/json",
    )
    assert api.status_code == 400, api.content
    assert "url" in json.dumps(api.json())
    assert not WebhookEndpoint.objects.exists()


def test_a_name_that_resolves_to_loopback_is_refused_when_sent(organiser, settings, receiver):
    """The form of a host name passes; its address is checked when the message goes,
    and the connection is made to the address checked."""
    user, club = organiser
    endpoint, _ = _endpoint(club, user, receiver.url.replace("127.0.0.1", "localhost.localdomain"))
    settings.WEBHOOK_ALLOW_PRIVATE = False
    delivery = webhook_test_send(endpoint=endpoint, by=Actor.director(user))
    from tournaments.webhooks.services import webhook_delivery_attempt

    webhook_delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.response_status is None and delivery.error
    assert receiver.received == []


def test_only_the_clubs_organisers_see_or_manage_its_webhooks(organiser, receiver):
    user, club = organiser
    endpoint, _ = _endpoint(club, user, receiver.url)
    other = Client()
    other.force_login(UserFactory())
    page = other.get(reverse("club-detail", args=[club.slug]))
    assert page.status_code == 200 and receiver.url.encode() not in page.content
    assert b'id="webhooks"' not in page.content
    for name in ("webhook-test", "webhook-active", "webhook-delete"):
        answer = other.post(reverse(name, args=[club.slug, endpoint.pk]), {"active": "no"})
        assert answer.status_code == 403, name
    assert (
        other.post(
            reverse("webhook-create", args=[club.slug]),
            {"url": "http://example.org/", "events": ["round.published"]},
        ).status_code
        == 403
    )
    api = f"/api/v1/clubs/{club.slug}/webhooks/"
    assert other.get(api).status_code == 403
    assert other.get(f"{api}{endpoint.pk}/deliveries/").status_code == 403
    assert other.delete(f"{api}{endpoint.pk}/").status_code == 403
    assert other.post(f"{api}{endpoint.pk}/test/").status_code == 403
    assert Client().get(api).status_code in (401, 403)
    endpoint.refresh_from_db()
    assert endpoint.active and WebhookEndpoint.objects.count() == 1
    assert not WebhookDelivery.objects.exists() and receiver.received == []
    # An organiser of another club cannot reach this club's endpoint through her own.
    elsewhere = ClubFactory()
    elsewhere.organisers.add(other.session and UserFactory())
    mine = Client()
    mine.force_login(user)
    assert (
        mine.post(reverse("webhook-delete", args=[elsewhere.slug, endpoint.pk])).status_code == 403
    )


def test_the_club_page_shows_the_organiser_the_log_with_the_answers(
    organiser, receiver, django_capture_on_commit_callbacks
):
    user, club = organiser
    client = Client()
    client.force_login(user)
    created = client.post(
        reverse("webhook-create", args=[club.slug]),
        {"url": receiver.url, "events": ["round.published", "round.closed"], "description": "Bot"},
    )
    assert created.status_code == 200
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.events == ["round.published", "round.closed"]
    # The secret is on this answer, once; never on the club's page.
    assert endpoint.secret.encode() in created.content
    receiver.secret = endpoint.secret
    receiver.statuses = [418]
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(reverse("webhook-test", args=[club.slug, endpoint.pk]))
    assert sent.status_code == 302
    page = client.get(reverse("club-detail", args=[club.slug]))
    text = page.content.decode()
    assert endpoint.secret not in text
    assert 'id="webhooks"' in text and "webhook.test" in text and "HTTP 418" in text
    assert " ms" in text and "{&quot;ok&quot;: true}" in text
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("webhook-active", args=[club.slug, endpoint.pk]), {"active": "no"})
    endpoint.refresh_from_db()
    assert not endpoint.active
    client.post(reverse("webhook-delete", args=[club.slug, endpoint.pk]))
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()
