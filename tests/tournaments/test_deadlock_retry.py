"""Issue 41, finding 7: a write that loses a deadlock is run again inside the service
(tournaments/core/retry.py), whether its block is the outermost transaction or a
savepoint in the caller's; a lost race that survives the retries is a 409 "try again";
only a database that is really gone is a 503."""

from __future__ import annotations

import threading

import psycopg.errors
import pytest
from django.db import OperationalError, connection, connections, transaction
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.retry import ATTEMPTS, lost_race, retried
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Tournament
from tournaments.results.services import result_path

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _lock(pk: int) -> None:
    # The game row alone (Game's default ordering joins its table, round and tournament).
    list(Game.objects.select_for_update(of=("self",)).filter(pk=pk).values_list("pk"))


def _deadlock_timeout(value: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('deadlock_timeout', %s, true)", [value])


def _opposite_order_race(*, inside_callers_transaction: bool) -> tuple[list[int], list[object]]:
    """Thread A runs a retried service locking game 1 then game 2, thread B a plain
    transaction locking game 2 then game 1, each waiting for the other's first lock:
    a deadlock. A checks for deadlocks first (its deadlock_timeout is short), so A is
    the one PostgreSQL ends. With ``inside_callers_transaction`` A's caller holds a
    transaction around the service and wrote something before it (the service's block
    is then a savepoint). Returns A's attempts and both outcomes."""
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    first, second = Game.objects.filter(table__round=round_).order_by("pk")[:2]
    both_hold_one = threading.Barrier(2)
    a_waits = threading.Event()
    attempts: list[int] = []
    outcomes: list[object] = [None, None]

    @retried
    def service() -> str:
        attempts.append(len(attempts) + 1)
        _deadlock_timeout("50ms")
        _lock(first.pk)
        Game.objects.filter(pk=first.pk).update(version=100)
        if len(attempts) == 1:
            both_hold_one.wait(timeout=10)
            a_waits.set()
        _lock(second.pk)
        return "saved"

    def a() -> None:
        try:
            if inside_callers_transaction:
                with transaction.atomic():
                    # The caller's own work before the service: kept through the retry.
                    Tournament.objects.filter(pk=tournament.pk).update(name="kept")
                    outcomes[0] = service()
            else:
                outcomes[0] = service()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[0] = exc
        finally:
            connections.close_all()

    def b() -> None:
        try:
            with transaction.atomic():
                _deadlock_timeout("10s")
                _lock(second.pk)
                both_hold_one.wait(timeout=10)
                a_waits.wait(timeout=10)
                _lock(first.pk)
                outcomes[1] = "committed"
        except Exception as exc:  # noqa: BLE001
            outcomes[1] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return attempts, outcomes


def test_a_service_that_loses_a_deadlock_is_run_again_and_succeeds():
    attempts, outcomes = _opposite_order_race(inside_callers_transaction=False)
    assert outcomes == ["saved", "committed"]
    assert attempts == [1, 2]
    assert Game.objects.filter(version=100).count() == 1


def test_inside_the_callers_transaction_the_retry_rolls_back_to_its_savepoint_only():
    # Rolling back to the savepoint released game 1 (taken after it), so B finished;
    # the caller's transaction went on and committed its own earlier write as well.
    attempts, outcomes = _opposite_order_race(inside_callers_transaction=True)
    assert outcomes == ["saved", "committed"]
    assert attempts == [1, 2]
    assert Game.objects.filter(version=100).count() == 1
    assert Tournament.objects.filter(name="kept").count() == 1


def _lost(sqlstate_error: type[Exception]) -> OperationalError:
    """What Django raises for a transaction PostgreSQL ended (its cause: psycopg's)."""
    exc = OperationalError("deadlock detected")
    exc.__cause__ = sqlstate_error("deadlock detected")
    return exc


def test_only_deadlocks_and_serialization_failures_count_as_a_lost_race():
    assert lost_race(_lost(psycopg.errors.DeadlockDetected))
    assert lost_race(_lost(psycopg.errors.SerializationFailure))
    assert not lost_race(_lost(psycopg.errors.AdminShutdown))
    assert not lost_race(OperationalError("connection refused"))


@pytest.fixture
def director_and_game() -> tuple[APIClient, Game]:
    user = UserFactory(username="td")
    club = ClubFactory(slug="kiel")
    club.organisers.add(user)
    tournament = tournament_with_players(4, club=club, slug="cup")
    tournament.directors.add(user)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    return api, Game.objects.filter(table__round=round_).order_by("pk").first()


def _put(api: APIClient, game: Game):
    return api.put(
        f"/api/v1/games/{game.pk}/", {"out": [3, 1], "version": game.version}, format="json"
    )


def test_a_database_that_is_gone_is_still_a_503_and_is_not_retried(director_and_game, monkeypatch):
    api, game = director_and_game
    calls = []

    def gone(**kwargs):
        calls.append(1)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(result_path, "game_record_out", gone)
    response = _put(api, game)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert calls == [1]


def test_a_race_lost_on_every_attempt_is_a_409_try_again_not_a_503(director_and_game, monkeypatch):
    api, game = director_and_game
    calls = []

    def deadlocked(**kwargs):
        calls.append(1)
        raise _lost(psycopg.errors.DeadlockDetected)

    monkeypatch.setattr(result_path, "game_record_out", deadlocked)
    response = _put(api, game)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"
    assert response["Retry-After"] == "1"
    assert len(calls) == ATTEMPTS
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING  # nothing was saved
