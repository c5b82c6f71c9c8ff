"""Issue 41, findings 3 and 6 (docs/offline.md): a queued entry names the version it was
typed against, or it is refused, so nothing queued replaces a newer result silently; an
``Idempotency-Key`` is one request (method, path and body): the same key with another
body is a 422 naming the header, and a key keeps a hash of its request and a compact
answer, never the whole game or page."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from games.pentagame.playout import random_game
from tests.factories import UserFactory
from tests.tournaments.test_offline_sync import key, queued, two_player_round
from tournaments.core.throttles import AddressThrottle, LinkThrottle
from tournaments.models import Game, IdempotencyKey, Ply, ResultSubmission, Seat
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
JSON = {"HTTP_ACCEPT": "application/json"}
# What one key may keep in its row (key, actor, path, hash, status, headers, body).
ROW_BYTES = 600


@pytest.fixture
def organiser():
    return UserFactory(username=f"org-{uuid.uuid4().hex[:6]}")


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def director(client, organiser):
    client.force_login(organiser)
    return client


def game_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/"


def save_url(game: Game) -> str:
    round_ = game.table.round
    return reverse("round-result-save", args=[round_.tournament.slug, round_.number, game.pk])


def report_url(seat: Seat) -> str:
    return reverse("seat-report", args=[seat.report_token])


def refused_naming(answer: Any, status: int, field: str) -> None:
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["field"] == field
    assert not answer.has_header("Idempotency-Replayed")


# --- finding 3: a queued entry names what it was typed against -------------------------


def test_a_queued_api_entry_without_version_is_a_400_and_the_newer_result_stands(api, organiser):
    _round, game, _seats = two_player_round(organiser)
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    game.refresh_from_db()
    before = game.version
    answer = api.put(
        game_url(game),
        {"out": [1, 3], "finished": True},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(60),
    )
    refused_naming(answer, 400, "version")
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.version == before
    assert not ResultSubmission.objects.filter(game=game, out=[1, 3]).exists()


def test_a_queued_board_record_without_version_is_a_400_naming_version(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    moves = random_game(2, seed=3, max_plies=3000)
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = director.post(
        reverse("games:record", args=[game.pk]),
        json.dumps({"moves": moves}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(60),
    )
    refused_naming(answer, 400, "version")
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.moves == []


def test_a_queued_api_entry_with_its_version_is_still_held_when_the_game_changed(api, organiser):
    _round, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = api.put(
        game_url(game),
        {"out": [1, 3], "finished": True, "version": typed_against},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(60),
    )
    assert answer.status_code == 202 and answer.json()["outcome"] == "dispute"
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]


def test_an_entry_sent_as_it_is_made_still_needs_no_version(api, organiser):
    _round, game, _seats = two_player_round(organiser)
    answer = api.put(game_url(game), {"out": [3, 1], "finished": True}, format="json")
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]


# --- finding 6: one key, one request ----------------------------------------------------


def test_the_same_key_with_another_body_is_a_422_for_a_director_entry(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    k = key()
    first = director.post(
        save_url(game), {"out": "3 1", "version": game.version}, HTTP_IDEMPOTENCY_KEY=k, **JSON
    )
    assert first.status_code == 200
    game.refresh_from_db()
    other = director.post(
        save_url(game), {"out": "1 3", "version": game.version}, HTTP_IDEMPOTENCY_KEY=k, **JSON
    )
    refused_naming(other, 422, "Idempotency-Key")
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]


def test_the_same_key_with_another_body_is_a_422_for_an_api_entry(api, organiser):
    _round, game, _seats = two_player_round(organiser)
    k = key()
    body = {"out": [3, 1], "finished": True, "version": game.version}
    assert api.put(game_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=k).status_code == 200
    other = api.put(game_url(game), {**body, "out": [1, 3]}, format="json", HTTP_IDEMPOTENCY_KEY=k)
    refused_naming(other, 422, "Idempotency-Key")
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]


def test_the_same_key_with_another_body_is_a_422_for_a_report(client):
    _round, game, seats = two_player_round()
    k = key()
    data = {"game": game.pk, "out": "3 1", "version": game.version}
    first = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert first.status_code == 200
    other = client.post(
        report_url(seats[1]), {**data, "out": "1 3"}, HTTP_IDEMPOTENCY_KEY=k, **JSON
    )
    refused_naming(other, 422, "Idempotency-Key")
    assert list(ResultSubmission.objects.filter(game=game).values_list("out", flat=True)) == [
        [3, 1]
    ]


def test_the_same_key_with_another_body_is_a_422_for_a_ply(client):
    _round, game, seats = two_player_round()
    first_move, other_move = random_game(2, seed=3, max_plies=1)[0], "W-W1B"
    url = reverse("api:report-plies", args=[seats[1].report_token, game.pk])
    k = key()
    first = client.post(
        url,
        json.dumps({"ply": 1, "move": first_move, "key": "p1"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=k,
    )
    assert first.status_code == 200
    other = client.post(
        url,
        json.dumps({"ply": 1, "move": other_move, "key": "p1"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=k,
    )
    refused_naming(other, 422, "Idempotency-Key")
    assert list(Ply.objects.filter(game=game).values_list("move", flat=True)) == [first_move]


def test_the_same_body_sent_again_in_another_field_order_or_csrf_token_is_a_replay(client):
    """What counts is what the request says, not how a client spelled it: a form's
    fields in another order or with another CSRF token, JSON with its keys reordered."""
    _round, game, seats = two_player_round()
    k = key()
    first = client.post(
        report_url(seats[1]),
        f"csrfmiddlewaretoken=a&game={game.pk}&out=3+1&version={game.version}",
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY=k,
        **JSON,
    )
    assert first.status_code == 200
    again = client.post(
        report_url(seats[1]),
        f"version={game.version}&out=3%201&game={game.pk}&csrfmiddlewaretoken=b",
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY=k,
        **JSON,
    )
    assert again.status_code == 200 and again["Idempotency-Replayed"] == "true"
    assert again.json() == first.json()
    _round, game, seats = two_player_round()
    url = reverse("api:report-plies", args=[seats[1].report_token, game.pk])
    move = random_game(2, seed=3, max_plies=1)[0]
    ply_key = key()
    sent = [
        client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=ply_key)
        for body in (
            json.dumps({"ply": 1, "move": move, "key": "p1"}),
            json.dumps({"key": "p1", "move": move, "ply": 1}, indent=2),
        )
    ]
    assert [a.status_code for a in sent] == [200, 200]
    assert sent[1]["Idempotency-Replayed"] == "true"


# --- a key keeps a hash and a compact answer --------------------------------------------


def test_a_replayed_api_write_answers_the_game_as_it_now_is(api, organiser):
    _round, game, _seats = two_player_round(organiser)
    k = key()
    body = {"out": [3, 1], "finished": True, "version": game.version}
    first = api.put(game_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=k)
    again = api.put(game_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=k)
    assert first.status_code == again.status_code == 200
    assert again["Idempotency-Replayed"] == "true"
    assert again.json() == first.json()
    row = IdempotencyKey.objects.get(key=k)
    assert len(row.request_hash) == 64 and len(bytes(row.body)) < 300
    assert b'"moves"' not in bytes(row.body)


def test_a_replayed_board_save_answers_the_compact_outcome(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    moves = random_game(2, seed=3, max_plies=3000)
    k = key()
    body = json.dumps({"moves": moves, "version": game.version})
    url = reverse("games:record", args=[game.pk])
    sent = [
        director.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=k)
        for _ in range(2)
    ]
    assert sent[0].status_code == 200 and len(sent[0].content) > 1000  # the board's state
    assert sent[1].status_code == 200 and sent[1]["Idempotency-Replayed"] == "true"
    assert sent[1].json()["outcome"] == "saved"
    assert len(sent[1].content) < 300


def test_a_thousand_keys_from_one_link_store_a_few_hundred_bytes_each(client, monkeypatch):
    """Finding 5: 10,000 keys of one link through the board stored 23.2 MB (the whole
    answer each). A representative 1,000 plies' keys, each answered with the board's
    state of the game, keep a bounded row each."""
    # The link's writes within a minute go past the pages' throttle (tested on its own
    # in test_trust_plies.py): raised here, this test measures the keys alone.
    for throttle in (LinkThrottle, AddressThrottle):
        monkeypatch.setattr(
            throttle, "THROTTLE_RATES", {throttle.scope: "100000/minute"}, raising=True
        )
    _round, game, seats = two_player_round()
    url = reverse("games:record-token", args=[game.pk, seats[1].report_token])
    moves = random_game(2, seed=7, max_plies=3000)

    def send(number: int) -> Any:
        body = {"ply": number, "move": moves[number - 1], "key": f"k{number}"}
        return client.post(
            url, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key()
        )

    answers = [send(number) for number in range(1, 41)]
    # The rest of the 1,000: the last ply sent again under new keys (each in already).
    answers += [send(40) for _ in range(960)]
    assert {a.status_code for a in answers} == {200}
    assert min(len(a.content) for a in answers) > 4 * ROW_BYTES  # the board's state
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), max(pg_column_size(k.*)), sum(pg_column_size(k.*)) "
            f"FROM {IdempotencyKey._meta.db_table} k"
        )
        count, largest, total = cursor.fetchone()
    print(f"1,000 keys: largest row {largest} B, all rows {total} B")
    assert count == 1000
    assert largest <= ROW_BYTES, largest
    assert total <= 1000 * ROW_BYTES
