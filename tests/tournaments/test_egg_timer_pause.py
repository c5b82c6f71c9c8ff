"""The egg timer as a table uses it (issue 42; services/plies.py, docs/rules.md "The egg
timer"): a seat or the director pauses and resumes it, and time passes only while it
runs; a board back long after a deadline records that one lost turn, never a burst;
an undone lost turn turns the timer again on its seat."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.pentagame.playout import random_game
from tests.factories import UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, Seat
from tournaments.results.selectors.table_state import game_clock, game_live
from tournaments.results.services.plies import game_timer_pause, game_timer_resume
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
SECONDS = 10
MOVES = random_game(2, seed=5, max_plies=4)


def table(seconds: int | None = SECONDS) -> tuple[Game, dict[int, Actor]]:
    """A published round's 2-player game with an egg timer, and each seat's link, in
    moving order (1: the first to move)."""
    t = tournament_with_players(2, seconds_per_move=seconds)
    round_ = round_pair_next(tournament=t, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    game = Game.objects.get(table__round=round_, number=1)
    seats = {s.position: s for s in Seat.objects.filter(table=game.table)}
    order = game.moving_order(2)
    return game, {i + 1: Actor.player(seats[p]) for i, p in enumerate(order)}


def send(game: Game, by: Actor, number: int, move: str = "", **kw: object) -> Game:
    entry = ResultEntry(ply=PlyEntry(number=number, move=move, key=uuid.uuid4().hex, **kw))
    return game_result_record(game=game, entry=entry, by=by)


def received_ago(game: Game, number: int, seconds: float, now: datetime | None = None) -> None:
    """Ply ``number`` reached the server ``seconds`` ago."""
    then = (now or timezone.now()) - timedelta(seconds=seconds)
    Ply.objects.filter(game=game, number=number).update(at=then, received_at=then)


def test_a_board_back_long_after_a_deadline_records_one_lost_turn_not_a_burst():
    # The finding: a board reopened 16 s after a deadline recorded 2 lost turns in 3 s.
    game, seats = table()
    send(game, seats[1], 1, MOVES[0])
    received_ago(game, 1, SECONDS + 16)  # the deadline passed 16 s ago
    send(game, seats[1], 2, timeout=True)
    with pytest.raises(ServiceError, match="not over yet") as refused:
        send(game, seats[1], 3, timeout=True)
    assert refused.value.field == "timeout"
    game.refresh_from_db()
    assert game.moves == [MOVES[0], "pass"]
    lost = Ply.objects.get(game=game, number=2)
    # Labelled with the moment it was lost; the next seat's time runs from its arrival.
    assert lost.timed_out and lost.at < lost.received_at - timedelta(seconds=15)
    timer = game_clock(game)
    assert timer is not None
    assert timedelta(seconds=SECONDS - 2) < timer.left <= timedelta(seconds=SECONDS)


def test_a_second_lost_turn_counts_once_a_whole_period_passed_since_the_first_arrived():
    game, seats = table()
    send(game, seats[1], 1, MOVES[0])
    received_ago(game, 1, SECONDS + 16)
    send(game, seats[1], 2, timeout=True)
    received_ago(game, 2, SECONDS)
    send(game, seats[2], 3, timeout=True)
    game.refresh_from_db()
    assert game.moves == [MOVES[0], "pass", "pass"]


def test_undoing_a_lost_turn_turns_the_timer_again_on_its_seat():
    # The finding: undoing a lost turn lost it again at once (the deadline was past).
    game, seats = table()
    send(game, seats[1], 1, MOVES[0])
    received_ago(game, 1, SECONDS + 16)
    send(game, seats[1], 2, timeout=True)
    send(game, seats[1], 2, undo=True)
    with pytest.raises(ServiceError, match="not over yet"):
        send(game, seats[1], 2, timeout=True)
    game.refresh_from_db()
    assert game.moves == [MOVES[0]]
    timer = game_clock(game)
    assert timer is not None and timedelta(seconds=SECONDS - 2) < timer.left
    # The seat that lost it moves after all.
    send(game, seats[2], 2, MOVES[1])
    assert Game.objects.get(pk=game.pk).moves == MOVES[:2]


def test_a_paused_timer_stands_still_and_loses_no_turn():
    game, seats = table()
    send(game, seats[1], 1, MOVES[0])
    received_ago(game, 1, 4)
    game_timer_pause(game=game, by=seats[2])
    game.refresh_from_db()
    assert game.timer_paused_at is not None
    # A long pause: a minute on the server's clock, none on the table's.
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(timer_paused_at=now - timedelta(seconds=60))
    received_ago(game, 1, 64, now)
    with pytest.raises(ServiceError, match="paused") as refused:
        send(game, seats[1], 2, timeout=True)
    assert refused.value.field == "timeout"
    state = game_live(game_id=game.pk)
    assert state is not None and state["clock"]["paused"] and state["clock"]["deadline"] is None
    assert state["clock"]["left"] == SECONDS - 4
    game_timer_resume(game=game, by=seats[1])
    game.refresh_from_db()
    assert game.timer_paused_at is None
    assert timedelta(seconds=59) < game.timer_paused < timedelta(seconds=62)
    with pytest.raises(ServiceError, match="not over yet"):
        send(game, seats[1], 2, timeout=True)
    state = game_live(game_id=game.pk)
    assert state is not None and not state["clock"]["paused"]
    left = datetime.fromisoformat(state["clock"]["deadline"]) - timezone.now()
    assert timedelta(seconds=SECONDS - 6) < left <= timedelta(seconds=SECONDS - 4)
    board = Client().get(reverse("games:state", args=[game.pk])).json()
    assert board["deadline"] == state["clock"]["deadline"] and board["paused"] is False


def test_a_move_made_while_paused_starts_the_next_seats_time_when_it_resumes():
    game, seats = table()
    send(game, seats[1], 1, MOVES[0])
    game_timer_pause(game=game, by=seats[1])
    Game.objects.filter(pk=game.pk).update(timer_paused_at=timezone.now() - timedelta(seconds=60))
    send(game, seats[2], 2, MOVES[1])
    game_timer_resume(game=game, by=seats[2])
    timer = game_clock(Game.objects.get(pk=game.pk))
    assert timer is not None and timer.left > timedelta(seconds=SECONDS - 2)


def test_pausing_twice_changes_nothing_and_the_director_resumes():
    game, seats = table()
    paused = game_timer_pause(game=game, by=seats[1])
    again = game_timer_pause(game=game, by=seats[2])
    assert again.version == paused.version and again.timer_paused_at == paused.timer_paused_at
    director = Actor.director(UserFactory())
    game.table.round.tournament.club.organisers.add(director.user)
    resumed = game_timer_resume(game=game, by=director)
    assert resumed.timer_paused_at is None and resumed.version == paused.version + 1


def test_a_tournament_without_an_egg_timer_has_nothing_to_pause():
    game, seats = table(seconds=None)
    with pytest.raises(ServiceError, match="without an egg timer") as refused:
        game_timer_pause(game=game, by=seats[1])
    assert refused.value.field == "timer"
    assert Game.objects.get(pk=game.pk).timer_paused_at is None


def test_the_board_and_the_api_pause_and_resume_with_one_error_shape():
    game, seats = table()
    token = seats[1].seat.report_token
    board = reverse("games:record-token", args=[game.pk, token])
    client = Client()
    answer = client.post(board, {"timer": "pause"}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["paused"] is True
    assert Game.objects.get(pk=game.pk).timer_paused_at is not None
    api = reverse("api:report-timer", args=[token, game.pk])
    answer = client.post(api, {"paused": False}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert Game.objects.get(pk=game.pk).timer_paused_at is None
    bad = client.post(board, {"timer": "later"}, content_type="application/json")
    assert bad.status_code == 400 and "error" in bad.json()
    bad = client.post(api, {"paused": "soon"}, content_type="application/json")
    assert bad.status_code == 400 and "error" in bad.json()
    assert bad.json()["error"]["field"] == "paused"
