"""The server's half of the venue without signal (docs/offline.md): an item a page's
offline queue sends again with its Idempotency-Key is stored once and answered alike;
a queued item that no longer fits (the game changed, the round closed, another device
recorded a different ply) is kept for the organiser, shown on the results screen, and
never written over what happened meanwhile."""

from __future__ import annotations

import json
import threading
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.pentagame.playout import random_game
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import (
    Game,
    IdempotencyKey,
    Ply,
    PlyConflict,
    ResultSubmission,
    Round,
    Seat,
)
from tournaments.results.services.result_path import (
    PlyEntry,
    ResultEntry,
    game_result_record,
    game_result_sync,
)
from tournaments.results.services.results import Actor, game_record_out, result_held_set_aside
from tournaments.tasks import idempotency_sweep_task

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
JSON = {"HTTP_ACCEPT": "application/json"}
State = ResultSubmission.State


def key() -> str:
    return uuid.uuid4().hex


def queued(minutes_ago: int = 5) -> dict[str, str]:
    """The header of an item typed offline ``minutes_ago``."""
    at = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    return {"HTTP_X_AGON_QUEUED_AT": at.isoformat().replace("+00:00", "Z")}


def two_player_round(organiser: Any | None = None) -> tuple[Round, Game, dict[int, Seat]]:
    """A published round with one 2-player table: the round, its first game, the seats."""
    club = ClubFactory()
    if organiser is not None:
        club.organisers.add(organiser)
    tournament = tournament_with_players(2, club=club)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    game = Game.objects.select_related("table").get(table__round=round_, number=1)
    seats = {s.position: s for s in Seat.objects.filter(table=game.table)}
    return round_, game, seats


@pytest.fixture
def organiser():
    return UserFactory(username=f"org-{uuid.uuid4().hex[:6]}")


@pytest.fixture
def director(client, organiser):
    client.force_login(organiser)
    return client


def report_url(seat: Seat) -> str:
    return reverse("seat-report", args=[seat.report_token])


def save_url(game: Game) -> str:
    round_ = game.table.round
    return reverse("round-result-save", args=[round_.tournament.slug, round_.number, game.pk])


def screen_url(round_: Round) -> str:
    return reverse("round-results", args=[round_.tournament.slug, round_.number])


def ply_url(seat: Seat, game: Game) -> str:
    return reverse("api:report-plies", args=[seat.report_token, game.pk])


def same_answer(first, second) -> None:
    assert second.status_code == first.status_code
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"]
    assert second["Idempotency-Replayed"] == "true"
    assert not first.has_header("Idempotency-Replayed")


# --- one key, one write --------------------------------------------------------------


def test_a_report_sent_twice_with_one_key_is_stored_once_and_answered_alike(client):
    _round, game, seats = two_player_round()
    data = {"game": game.pk, "out": "3 1", "version": game.version}
    k = key()
    first = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    second = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert first.status_code == 200
    assert first.json()["outcome"] == "saved"
    same_answer(first, second)
    assert ResultSubmission.objects.filter(game=game).count() == 1


def test_a_ply_sent_twice_with_one_key_is_stored_once_and_answered_alike(client):
    _round, game, seats = two_player_round()
    move = random_game(2, seed=3, max_plies=1)[0]
    body = json.dumps({"ply": 1, "move": move, "key": "p1"})
    k = key()
    sent = [
        client.post(
            ply_url(seats[1], game), body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=k
        )
        for _ in range(2)
    ]
    assert sent[0].status_code == 200 and sent[0].json()["moves"] == [move]
    same_answer(*sent)
    game.refresh_from_db()
    assert game.moves == [move] and Ply.objects.filter(game=game).count() == 1


def test_an_organisers_result_sent_twice_with_one_key_is_entered_once(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    data = {"out": "3 1", "version": game.version}
    k = key()
    first = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    second = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert first.status_code == 200
    assert first.json() == {"outcome": "saved", "detail": "Table 1, game 1: result saved."}
    same_answer(first, second)
    assert ResultSubmission.objects.filter(game=game, state=State.ENTERED).count() == 1


def test_an_htmx_save_replayed_answers_its_outcome_not_the_row(director, organiser):
    """A key keeps a compact answer, not the row (issue 41): the queue that sends an
    htmx save again (its answer was lost) reads the outcome and fetches the row."""
    _round, game, _seats = two_player_round(organiser)
    data = {"out": "3 1", "version": game.version}
    k = key()
    first = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=k, HTTP_HX_REQUEST="true")
    # The game changed since: a save without the key would now be a 409.
    second = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=k, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and b'id="game-' in first.content
    assert second.status_code == 200 and second["Idempotency-Replayed"] == "true"
    assert second["Content-Type"] == "application/json"
    assert second.json()["outcome"] == "saved"


def test_a_refused_item_is_stored_too_and_a_retry_gets_the_same_refusal(client):
    _round, game, seats = two_player_round()
    data = {"game": game.pk, "out": "3 9", "version": game.version}
    k = key()
    first = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert first.status_code == 400
    assert first.json()["error"]["field"] == "out_2"
    second = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    same_answer(first, second)
    # A corrected body under the same key is another request: a 422 naming the header
    # (the IETF draft), never the first answer replayed over it.
    data["out"] = "3 1"
    third = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert third.status_code == 422
    assert third.json()["error"]["field"] == "Idempotency-Key"
    assert not ResultSubmission.objects.filter(game=game).exists()


def test_a_key_sent_to_another_path_or_by_another_actor_is_a_422_naming_the_header(client):
    _round, game, seats = two_player_round()
    k = key()
    data = {"game": game.pk, "out": "3 1", "version": game.version}
    assert (
        client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON).status_code == 200
    )
    move = random_game(2, seed=3, max_plies=1)[0]
    other_path = client.post(
        ply_url(seats[1], game),
        json.dumps({"ply": 1, "move": move, "key": "p1"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=k,
    )
    other_actor = client.post(report_url(seats[2]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    for answer in (other_path, other_actor):
        assert answer.status_code == 422
        assert answer.json()["error"]["field"] == "Idempotency-Key"
        assert not answer.has_header("Idempotency-Replayed")
    game.refresh_from_db()
    assert game.moves == [] and ResultSubmission.objects.filter(game=game).count() == 1


def test_a_malformed_key_is_a_400_naming_the_header_and_writes_nothing(client):
    _round, game, seats = two_player_round()
    data = {"game": game.pk, "out": "3 1", "version": game.version}
    for bad in ("short", "x" * 101, "has space in it", "ümlautkey1"):
        answer = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=bad, **JSON)
        assert answer.status_code == 400
        assert answer.json()["error"]["field"] == "Idempotency-Key"
    assert not ResultSubmission.objects.filter(game=game).exists()


def test_keys_older_than_seven_days_are_swept_and_such_a_key_is_claimed_afresh(client):
    _round, game, seats = two_player_round()
    k = key()
    data = {"game": game.pk, "out": "3 1", "version": game.version}
    client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    fresh = key()
    client.post(report_url(seats[2]), {**data, "confirm": "1"}, HTTP_IDEMPOTENCY_KEY=fresh, **JSON)
    IdempotencyKey.objects.filter(key=k).update(created_at=timezone.now() - timedelta(days=8))
    assert idempotency_sweep_task() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == [fresh]
    # The swept key is a new item now: the service answers it (already reported: 409).
    again = client.post(report_url(seats[1]), data, HTTP_IDEMPOTENCY_KEY=k, **JSON)
    assert again.status_code == 409 and not again.has_header("Idempotency-Replayed")


def test_an_item_sent_again_after_its_key_was_swept_is_stored_once(client, director, organiser):
    """A queue item can outlive its key (a phone off for a week): sent again, the entry
    itself says it was in already, so it is neither stored twice nor kept twice."""
    round_, game, seats = two_player_round(organiser)
    second = Game.objects.get(table=game.table, number=2)
    move = random_game(2, seed=3, max_plies=1)[0]
    ply = json.dumps({"ply": 1, "move": move, "key": "p1"})
    keys = [key(), key()]

    def send_ply() -> Any:
        return client.post(
            ply_url(seats[1], game),
            ply,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=keys[0],
            **queued(10),
        )

    def send_report() -> Any:
        return client.post(
            report_url(seats[1]), report, HTTP_IDEMPOTENCY_KEY=keys[1], **queued(9), **JSON
        )

    def send_all() -> list[Any]:
        return [send_ply(), send_report()]

    assert send_ply().status_code == 200
    report = {"game": second.pk, "out": "3 1", "version": second.version}
    assert send_report().json()["outcome"] == "saved"
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(days=8))
    assert idempotency_sweep_task() == 2
    again = send_all()
    assert [answer.status_code for answer in again] == [200, 200]
    assert not any(answer.has_header("Idempotency-Replayed") for answer in again)
    assert again[1].json()["outcome"] == "duplicate"
    game.refresh_from_db()
    assert game.moves == [move] and Ply.objects.filter(game=game).count() == 1
    assert list(ResultSubmission.objects.filter(game=second).values_list("state", flat=True)) == [
        State.REPORTED
    ]
    assert not PlyConflict.objects.filter(game__table=game.table).exists()


def test_the_last_ply_of_a_decided_game_sent_again_is_in_already_not_a_flag(client, organiser):
    _round, game, seats = two_player_round(organiser)
    moves = random_game(2, seed=3, max_plies=3000)
    game_result_record(game=game, entry=ResultEntry(moves=moves), by=Actor.director(organiser))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.moves == moves
    answer = _ply_after(client, game, seats[1], len(moves), moves[-1], **queued())
    assert answer.status_code == 200
    assert not PlyConflict.objects.filter(game=game).exists()
    # A different last ply is still the table's flag: the record does not hold it.
    other = _ply_after(client, game, seats[1], len(moves) + 1, moves[-1], **queued())
    assert other.status_code == 202
    assert PlyConflict.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_copies_of_one_item_sent_at_once_write_once():
    _round, game, seats = two_player_round()
    url = reverse("api:report", args=[seats[1].report_token, game.pk])
    body = json.dumps({"out": [3, 1], "version": game.version})
    k = key()
    barrier = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def send(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = Client().post(
                url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=k
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    replayed = [a for a in answers if a.has_header("Idempotency-Replayed")]
    first = [a for a in answers if not a.has_header("Idempotency-Replayed")]
    assert len(replayed) == 1 and len(first) == 1, [a.status_code for a in answers]
    same_answer(first[0], replayed[0])
    assert first[0].status_code == 200
    assert ResultSubmission.objects.filter(game=game).count() == 1
    assert IdempotencyKey.objects.get(key=k).status == 200


# --- what no longer fits is kept ------------------------------------------------------


def test_a_queued_result_typed_against_a_stale_version_becomes_a_dispute_on_the_screen(
    director, organiser
):
    round_, game, _seats = two_player_round(organiser)
    typed_against = game.version
    # Meanwhile another device entered 3:1.
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = director.post(
        save_url(game),
        {"out": "1 3", "version": typed_against},
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(),
        **JSON,
    )
    assert answer.status_code == 202
    body = answer.json()
    assert body["outcome"] == "dispute"
    assert "changed while this result was typed offline" in body["detail"]
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.counts  # the earlier result stands
    held = ResultSubmission.objects.get(game=game, state=State.HELD)
    assert held.out == [1, 3] and held.held_reason == "changed"
    page = director.get(screen_url(round_)).content.decode()
    assert "Kept for you: director org" in page and "sent 1:3 from offline" in page
    assert "the game changed while it was typed offline" in page
    # The organiser accepts it: now it is the result, and the row offers it no more.
    accept = reverse("round-result-accept", args=[round_.tournament.slug, round_.number, held.pk])
    assert director.post(accept, {"version": game.version}).status_code == 302
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3] and game.counts
    assert "Kept for you" not in director.get(screen_url(round_)).content.decode()


def test_a_held_entry_keeps_its_round_open_until_the_organiser_decides(director, organiser):
    round_, game, _seats = two_player_round(organiser)
    typed_against = game.version
    by = Actor.director(organiser)
    for other in Game.objects.filter(table__round=round_):
        game_record_out(game=other, out=[3, 1], by=by)
    data = {"out": "1 3", "version": typed_against}
    assert (
        director.post(
            save_url(game), data, HTTP_IDEMPOTENCY_KEY=key(), **queued(), **JSON
        ).status_code
        == 202
    )
    with pytest.raises(ServiceError) as refused:
        round_close(round=round_, by=by)
    assert refused.value.field == "round"
    assert "table 1 (held: game 1)" in refused.value.message
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    held = ResultSubmission.objects.get(game=game, state=State.HELD)
    result_held_set_aside(submission=held, by=by)
    assert round_close(round=round_, by=by).status == Round.Status.CLOSED


def test_a_kept_entry_sent_again_under_a_new_key_is_kept_once(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    data = {"out": "1 3", "version": typed_against}
    first = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=key(), **queued(), **JSON)
    again = director.post(save_url(game), data, HTTP_IDEMPOTENCY_KEY=key(), **queued(), **JSON)
    assert first.status_code == 202
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    assert ResultSubmission.objects.filter(game=game, state=State.HELD).count() == 1


def test_a_held_entry_set_aside_leaves_the_result_and_stops_showing(director, organiser):
    round_, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    director.post(save_url(game), {"out": "1 3", "version": typed_against}, **queued(), **JSON)
    held = ResultSubmission.objects.get(game=game, state=State.HELD)
    aside = reverse("round-result-set-aside", args=[round_.tournament.slug, round_.number, held.pk])
    row = director.post(aside, HTTP_HX_REQUEST="true")
    assert row.status_code == 200 and "Kept for you" not in row.content.decode()
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.counts
    held.refresh_from_db()
    assert held.state == State.HELD and held.decided_by_user == organiser
    # Set aside once: a second click (another device) is told it is no longer open.
    assert director.post(aside, HTTP_HX_REQUEST="true").status_code == 409


def test_the_api_sets_a_held_entry_aside_as_the_results_screen_does(director, organiser):
    round_, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    director.post(save_url(game), {"out": "1 3", "version": typed_against}, **queued(), **JSON)
    held = ResultSubmission.objects.get(game=game, state=State.HELD)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{round_.tournament.slug}/submissions/{held.pk}/set-aside/"
    answer = api.post(url)
    assert answer.status_code == 200 and answer.json()["id"] == game.pk
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]
    held.refresh_from_db()
    assert held.decided_by_user == organiser
    again = api.post(url)
    assert again.status_code == 409 and again.json()["error"]["field"] == "game"
    # Another tournament's organiser finds no such entry in her own.
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="stranger"))
    assert stranger.post(url).status_code in (403, 404)


def test_without_the_queued_header_a_stale_version_is_still_a_409(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = director.post(save_url(game), {"out": "1 3", "version": typed_against}, **JSON)
    assert answer.status_code == 409
    assert answer.json()["error"]["field"] == "version"
    assert not ResultSubmission.objects.filter(game=game, state=State.HELD).exists()


def test_a_queued_result_equal_to_the_one_entered_meanwhile_is_a_duplicate(director, organiser):
    _round, game, _seats = two_player_round(organiser)
    typed_against = game.version
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = director.post(
        save_url(game), {"out": "3 1", "version": typed_against}, **queued(), **JSON
    )
    assert answer.status_code == 200 and answer.json()["outcome"] == "duplicate"
    assert not ResultSubmission.objects.filter(game=game, state=State.HELD).exists()


def test_a_queued_report_after_the_round_closed_is_kept_for_the_director(client, organiser):
    round_, game, seats = two_player_round(organiser)
    typed_at = queued(minutes_ago=30)
    round_close(round=round_, by=COMMAND, force=True)
    game.refresh_from_db()
    before = (game.status, game.out_list(2))
    answer = client.post(
        report_url(seats[2]),
        {"game": game.pk, "out": "1 3", "version": game.version},
        HTTP_IDEMPOTENCY_KEY=key(),
        **typed_at,
        **JSON,
    )
    assert answer.status_code == 202
    assert answer.json()["outcome"] == "dispute"
    assert "was closed before this result arrived" in answer.json()["detail"]
    game.refresh_from_db()
    assert (game.status, game.out_list(2)) == before
    held = ResultSubmission.objects.get(game=game, state=State.HELD)
    assert held.by_seat_id == seats[2].pk and held.held_reason == "closed"
    client.force_login(organiser)
    page = client.get(screen_url(round_)).content.decode()
    assert f"Kept for you: {seats[2].entry.player.name} sent 1:3 from offline" in page
    # Sent as it was made (not queued), the same report is still refused as before.
    late = client.post(
        report_url(seats[1]), {"game": game.pk, "out": "1 3", "version": game.version}, **JSON
    )
    assert late.status_code == 400 and late.json()["error"]["field"] == "round"


def test_a_queued_confirmation_after_the_round_closed_finds_the_result_counted(client):
    """A round closes only once nothing waits for a confirmation: the late confirmation
    is answered as a duplicate, not refused and not lost."""
    round_, game, seats = two_player_round()
    game_record_out(game=game, out=[3, 1], by=Actor.player(seats[1]))
    client.post(report_url(seats[2]), {"game": game.pk, "confirm": "1"}, **JSON)
    round_close(round=round_, by=COMMAND, force=True)  # the table's other games unplayed
    answer = client.post(
        report_url(seats[2]),
        {"game": game.pk, "confirm": "1"},
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(),
        **JSON,
    )
    assert answer.status_code == 200 and answer.json()["outcome"] == "duplicate"
    game.refresh_from_db()
    assert game.counts and game.out_list(2) == [3, 1]


def test_a_queued_ply_that_differs_from_another_devices_is_a_recorded_conflict(client):
    _round, game, seats = two_player_round()
    mine, theirs = random_game(2, seed=1, max_plies=1)[0], random_game(2, seed=2, max_plies=1)[0]
    assert mine != theirs
    game_result_record(
        game=game, entry=ResultEntry(ply=PlyEntry(1, theirs, "t1")), by=Actor.player(seats[2])
    )
    answer = client.post(
        ply_url(seats[1], game),
        json.dumps({"ply": 1, "move": mine, "key": "m1"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(),
    )
    assert answer.status_code == 202
    assert answer.json()["outcome"] == "conflict"
    assert "recorded" in answer.json()["detail"]
    assert list(PlyConflict.objects.filter(game=game).values_list("number", "move")) == [(1, mine)]
    game.refresh_from_db()
    assert game.moves == [theirs]


def test_a_queued_ply_keeps_the_time_it_was_typed_between_the_ply_before_and_now(client):
    round_, game, seats = two_player_round()
    # The round went out 30 minutes ago; the table played offline since.
    published = timezone.now() - timedelta(minutes=30)
    Round.objects.filter(pk=round_.pk).update(published_at=published)
    moves = random_game(2, seed=5, max_plies=4)
    order = game.moving_order(2)

    def send(n: int, header: dict[str, str]) -> None:
        seat = seats[order[(n - 1) % 2]]
        answer = client.post(
            ply_url(seat, game),
            json.dumps({"ply": n, "move": moves[n - 1], "key": f"k{n}"}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key(),
            **header,
        )
        assert answer.status_code == 200, answer.content

    def at(n: int) -> datetime:
        return Ply.objects.get(game=game, number=n).at

    send(1, queued(minutes_ago=20))
    assert abs((at(1) - (timezone.now() - timedelta(minutes=20))).total_seconds()) < 30
    send(2, queued(minutes_ago=25))  # a device's clock behind: not before ply 1
    assert at(2) == at(1)
    send(3, queued(minutes_ago=-60))  # a clock ahead: not after the moment it arrived
    assert at(3) <= timezone.now()
    send(4, {})  # sent as it was made
    assert at(3) <= at(4) <= timezone.now()


def test_a_first_queued_ply_is_never_before_its_round_went_out(client):
    round_, game, seats = two_player_round()
    published = Round.objects.get(pk=round_.pk).published_at
    move = random_game(2, seed=5, max_plies=1)[0]
    seat = seats[game.moving_order(2)[0]]
    answer = client.post(
        ply_url(seat, game),
        json.dumps({"ply": 1, "move": move, "key": "k1"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(minutes_ago=24 * 60),
    )
    assert answer.status_code == 200
    assert Ply.objects.get(game=game, number=1).at == published


def _ply_after(client, game: Game, seat: Seat, number: int, move: str, **headers: Any):
    return client.post(
        ply_url(seat, game),
        json.dumps({"ply": number, "move": move, "key": f"late{number}"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **headers,
    )


def test_a_queued_ply_after_the_game_was_decided_is_kept_as_the_tables_flag(
    client, director, organiser
):
    round_, game, seats = two_player_round(organiser)
    move = random_game(2, seed=4, max_plies=1)[0]
    seat = seats[game.moving_order(2)[0]]
    # Meanwhile the organiser entered the result from the score sheet.
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    answer = _ply_after(Client(), game, seat, 1, move, **queued())
    assert answer.status_code == 202
    assert answer.json()["outcome"] == "conflict"
    assert "the ply is kept for the organiser" in answer.json()["detail"]
    # Sent again under another key: still one flag.
    assert _ply_after(Client(), game, seat, 1, move, **queued()).status_code == 202
    (flag,) = PlyConflict.objects.filter(game=game)
    assert (flag.number, flag.move, flag.recorded, flag.by_position) == (1, move, "", seat.position)
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and not game.moves
    page = director.get(screen_url(round_)).content.decode()
    assert f"sent {move} for ply 1 after the game was decided" in page
    # Sent as it was made (no queue), the same ply is refused as before.
    refused = _ply_after(Client(), game, seat, 2, move)
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "game"
    assert PlyConflict.objects.filter(game=game).count() == 1


def test_a_queued_ply_after_its_round_closed_is_kept_as_the_tables_flag(client):
    round_, game, seats = two_player_round()
    moves = random_game(2, seed=6, max_plies=2)
    order = game.moving_order(2)
    first = _ply_after(Client(), game, seats[order[0]], 1, moves[0])
    assert first.status_code == 200
    round_close(round=round_, by=COMMAND, force=True)
    answer = _ply_after(Client(), game, seats[order[1]], 2, moves[1], **queued())
    assert answer.status_code == 202 and answer.json()["outcome"] == "conflict"
    (flag,) = PlyConflict.objects.filter(game=game)
    assert (flag.number, flag.move) == (2, moves[1])


def test_a_queued_illegal_ply_is_still_a_400_in_the_one_error_shape(client):
    _round, game, seats = two_player_round()
    answer = client.post(
        ply_url(seats[1], game),
        json.dumps({"ply": 1, "move": "W-XX9", "key": "bad"}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key(),
        **queued(),
    )
    assert answer.status_code == 400
    assert set(answer.json()["error"]) == {"code", "field", "message"}


def test_an_unreadable_queued_time_is_a_400_naming_the_header(client):
    _round, game, seats = two_player_round()
    answer = client.post(
        report_url(seats[1]),
        {"game": game.pk, "out": "3 1", "version": game.version},
        HTTP_X_AGON_QUEUED_AT="yesterday",
        **JSON,
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == "X-Agon-Queued-At"
    assert not ResultSubmission.objects.filter(game=game).exists()


# --- the sync as a whole --------------------------------------------------------------

LINES = [random_game(2, seed=seed, max_plies=4) for seed in (1, 2)]
RESULTS = ["3 1", "1 3", "3 0"]


def _state(game: Game) -> tuple[Any, ...]:
    """What the sync must agree on: the record, the result, the conflicts and kept
    entries (by seat position, so that two twin games compare)."""
    game.refresh_from_db()
    seats = {s.pk: s.position for s in Seat.objects.filter(table=game.table)}
    conflicts = sorted(
        PlyConflict.objects.filter(game=game).values_list("number", "move", "by_position")
    )
    held = sorted(
        (tuple(s.out), s.held_reason, seats.get(s.by_seat_id))
        for s in ResultSubmission.objects.filter(game=game, state=State.HELD)
    )
    plies = sorted(Ply.objects.filter(game=game).values_list("number", "move", "by_position"))
    return (
        game.moves,
        game.status,
        game.out_list(2),
        game.confirmed,
        game.version,
        conflicts,
        held,
        plies,
    )


@st.composite
def deliveries(draw: Any) -> list[tuple[Any, ...]]:
    """Two players' phones (each an offline queue of plies of its own line), the
    organiser's offline queue of results typed against the game as it was, and her
    online saves: merged in a random order, some items sent again later (a retry after
    a lost answer, a reload)."""
    queues: list[list[tuple[Any, ...]]] = []
    for device in (1, 2):
        line = LINES[draw(st.integers(0, 1))]
        count = draw(st.integers(0, len(line)))
        queues.append([("ply", device, n, line[n - 1], key()) for n in range(1, count + 1)])
    results = draw(st.lists(st.sampled_from(RESULTS), max_size=2))
    queues.append([("queued-result", 0, out, key()) for out in results])
    online = draw(st.lists(st.sampled_from(RESULTS), max_size=1))
    queues.append([("online-result", 0, out, key()) for out in online])
    merged: list[tuple[Any, ...]] = []
    while any(queues):
        q = draw(st.sampled_from([q for q in queues if q]))
        merged.append(q.pop(0))
    # Retries: an item sent again at a later point (same key).
    for _ in range(draw(st.integers(0, 3))):
        if merged:
            item = draw(st.sampled_from(merged))
            merged.insert(draw(st.integers(merged.index(item) + 1, len(merged))), item)
    return merged


def _send(
    client: Client,
    game: Game,
    seats: dict[int, Seat],
    item: tuple[Any, ...],
    v0: int,
    seen: dict[str, int],
):
    kind = item[0]
    if kind == "ply":
        _kind, device, number, move, k = item
        return client.post(
            ply_url(seats[device], game),
            json.dumps({"ply": number, "move": move, "key": k}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=k,
            **queued(),
        )
    _kind, _device, out, k = item
    if kind == "queued-result":
        return client.post(
            save_url(game), {"out": out, "version": v0}, HTTP_IDEMPOTENCY_KEY=k, **queued(), **JSON
        )
    game.refresh_from_db()  # online: she sees the game as it is; a retry sends it again
    version = seen.setdefault(k, game.version)
    return client.post(
        save_url(game), {"out": out, "version": version}, HTTP_IDEMPOTENCY_KEY=k, **JSON
    )


def _apply(game: Game, seats: dict[int, Seat], item: tuple[Any, ...], v0: int, by: Actor) -> str:
    """The same item applied directly through the one result path, once."""
    when = datetime.now(UTC) - timedelta(minutes=5)
    if item[0] == "ply":
        _kind, device, number, move, k = item
        entry = ResultEntry(ply=PlyEntry(number, move, k))
        who = Actor.player(seats[device])
        version = None
    else:
        _kind, _device, out, _k = item
        entry = ResultEntry(out_text=out)
        who = by
        game.refresh_from_db()
        version = v0 if item[0] == "queued-result" else game.version
        when = when if item[0] == "queued-result" else None
    try:
        return game_result_sync(
            game=game, entry=entry, version=version, by=who, queued_at=when
        ).kind
    except Exception as exc:  # noqa: BLE001 - a refusal is an outcome here too
        return type(exc).__name__


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(items=deliveries())
def test_interleaved_offline_queues_with_retries_end_as_the_items_applied_one_by_one(
    organiser, items
):
    """Several devices' queues and the organiser's online saves, merged in any order and
    sent with retries, end in the state of the same items applied once each, in the
    order they first arrived; every item kept (a conflict, a dispute) is recorded."""
    client = Client()
    client.force_login(organiser)
    _r, game, seats = two_player_round(organiser)
    _r2, twin, twin_seats = two_player_round(organiser)
    v0, twin_v0 = game.version, twin.version
    answers: dict[str, Any] = {}
    versions: dict[str, int] = {}
    for item in items:
        answer = _send(client, game, seats, item, v0, versions)
        k = item[-1]
        if k in answers:
            first = answers[k]
            assert answer["Idempotency-Replayed"] == "true"
            assert answer.status_code == first.status_code
            # An API ply's 200 is the game read again as it now is (its key keeps no game).
            if first.status_code != 200 or "outcome" in first.json():
                assert answer.content == first.content
        else:
            assert answer.status_code < 500
            answers[k] = answer
    seen: set[str] = set()
    outcomes = []
    for item in items:
        if item[-1] not in seen:
            seen.add(item[-1])
            outcomes.append(_apply(twin, twin_seats, item, twin_v0, Actor.director(organiser)))
    assert _state(game) == _state(twin)
    kept = [a for a in answers.values() if a.status_code == 202]
    recorded = PlyConflict.objects.filter(game=game).count()
    recorded += ResultSubmission.objects.filter(game=game, state=State.HELD).count()
    assert len(kept) == recorded == outcomes.count("conflict") + outcomes.count("dispute")
