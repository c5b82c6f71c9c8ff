"""A game recorded live at the table, ply by ply, through the one result path
(services/plies.py, docs/results.md "Live tables"): every ply is checked by the engine
and stored as it is made; a retry is stored once; a different ply for a ply number
already recorded is refused and flags the table; the last ply is undone by its seat;
the egg timer passes a seat that ran out of time (section 3)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.pentagame import replay
from games.pentagame.playout import random_game
from tests.factories import UserFactory, tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, PlyConflict, Seat
from tournaments.results.selectors.table_state import round_live_states
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor, game_confirm

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()


def three_player_game(**tournament: object) -> tuple[Game, dict[int, Actor]]:
    """A published round with one 3-player table; its game and each seat's link."""
    t = tournament_with_players(3, **tournament)
    round_ = round_pair_next(tournament=t, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    game = Game.objects.get(table__round=round_, number=1)
    seats = {s.position: Actor.player(s) for s in Seat.objects.filter(table=game.table)}
    return game, seats


def send(game: Game, by: Actor, number: int, move: str, key: str | None = None, **kw: object):
    entry = ResultEntry(ply=PlyEntry(number=number, move=move, key=key or uuid.uuid4().hex, **kw))
    return game_result_record(game=game, entry=entry, by=by)


def mover(game: Game, seats: dict[int, Actor], ply: int) -> Actor:
    """The link of the seat whose move ply ``ply`` is (the table's moving order)."""
    order = game.moving_order(3)
    return seats[order[(ply - 1) % 3]]


RECORD = random_game(3, seed=11, max_plies=3000)


def test_plies_sent_one_by_one_by_the_seats_in_turn_build_the_record_in_progress():
    game, seats = three_player_game()
    for n, move in enumerate(RECORD[:12], start=1):
        send(game, mover(game, seats, n), n, move)
    game.refresh_from_db()
    assert game.moves == RECORD[:12]
    assert game.status == Game.Status.IN_PROGRESS and not game.counts
    order = game.moving_order(3)
    assert [p.by_position for p in Ply.objects.filter(game=game)] == [
        order[i % 3] for i in range(12)
    ]


def test_a_retried_ply_is_stored_once_and_changes_nothing():
    game, seats = three_player_game()
    send(game, seats[1], 1, RECORD[0], key="k-1")
    game.refresh_from_db()
    version = game.version
    again = send(game, seats[1], 1, RECORD[0], key="k-1")
    assert again.version == version
    assert Ply.objects.filter(game=game).count() == 1
    # The same ply from the other device (its own key) is the same record, not a conflict.
    send(game, seats[2], 1, RECORD[0], key="other-device")
    game.refresh_from_db()
    assert game.moves == RECORD[:1] and game.version == version
    assert not PlyConflict.objects.exists()


def test_a_different_ply_for_a_recorded_number_is_refused_with_who_recorded_what_and_flags_the_table():
    game, seats = three_player_game()
    for n, move in enumerate(RECORD[:3], start=1):
        send(game, seats[2], n, move)
    other = next(m for m in random_game(3, seed=12, max_plies=10)[2:3] if m != RECORD[2])
    with pytest.raises(ConflictError) as refused:
        send(game, seats[3], 3, other)
    assert f"seat 2 recorded {RECORD[2]} at ply 3" in str(refused.value)
    game.refresh_from_db()
    assert game.moves == RECORD[:3]
    conflict = PlyConflict.objects.get(game=game)
    assert (conflict.number, conflict.move, conflict.by_position) == (3, other, 3)
    assert [c["ply"] for c in round_live_states(round_=game.table.round)[game.pk]["flagged"]] == [3]


def test_an_illegal_ply_is_refused_with_its_number_and_reason_and_nothing_is_saved():
    game, seats = three_player_game()
    send(game, seats[1], 1, RECORD[0])
    with pytest.raises(ServiceError) as refused:
        send(game, seats[2], 2, RECORD[0])  # the first mover's move again: not seat 2's piece
    assert "ply 2" in str(refused.value)
    game.refresh_from_db()
    assert game.moves == RECORD[:1]
    assert Ply.objects.filter(game=game).count() == 1


def test_a_ply_out_of_order_is_refused_naming_the_next_ply():
    game, seats = three_player_game()
    with pytest.raises(ConflictError, match="the next is ply 1, not 3"):
        send(game, seats[1], 3, RECORD[0])
    assert not Ply.objects.exists()


def test_only_the_seat_that_sent_the_last_ply_undoes_it_and_only_until_the_next():
    game, seats = three_player_game()
    send(game, seats[1], 1, RECORD[0])
    send(game, seats[2], 2, RECORD[1])
    with pytest.raises(ServiceError, match="recorded by seat 2"):
        game_result_record(game=game, entry=ResultEntry(ply=PlyEntry(2, undo=True)), by=seats[1])
    with pytest.raises(ConflictError, match="only the last ply"):
        game_result_record(game=game, entry=ResultEntry(ply=PlyEntry(1, undo=True)), by=seats[1])
    game_result_record(game=game, entry=ResultEntry(ply=PlyEntry(2, undo=True)), by=seats[2])
    game.refresh_from_db()
    assert game.moves == RECORD[:1]
    assert list(Ply.objects.filter(game=game).values_list("number", flat=True)) == [1]


def test_the_ply_that_ends_the_game_reports_the_result_and_an_opponent_confirms_it():
    game, seats = three_player_game()
    for n, move in enumerate(RECORD, start=1):
        send(game, mover(game, seats, n), n, move)
    game.refresh_from_db()
    result = replay({"players": 3, "variant": "standard", "moves": RECORD})
    assert game.status == Game.Status.FINISHED and not game.confirmed
    assert game.moves == RECORD
    last = mover(game, seats, len(RECORD))
    assert game.reported_by_position == last.seat.position
    with pytest.raises(ConflictError, match="is over"):
        send(game, last, len(RECORD) + 1, "pass")
    other = next(a for a in seats.values() if a.seat.position != last.seat.position)
    game_confirm(game=game, by=other)
    game.refresh_from_db()
    assert game.counts
    order = game.moving_order(3)
    assert [game.out_list(3)[order[i] - 1] for i in range(3)] == [
        min(o, game.target) for o in result.out
    ]


def test_the_egg_timer_passes_the_seat_to_move_only_once_its_time_is_up():
    game, seats = three_player_game()
    send(game, seats[1], 1, RECORD[0])
    with pytest.raises(ServiceError, match="without an egg timer"):
        send(game, seats[2], 2, "", timeout=True)
    tournament = game.table.round.tournament
    tournament.seconds_per_move = 60
    tournament.save(update_fields=["seconds_per_move"])
    with pytest.raises(ServiceError, match="not over yet"):
        send(game, seats[2], 2, "", timeout=True)
    # The timer reads the server's receipt of ply 1 (services/plies.py).
    earlier = Ply.objects.get(game=game).received_at - timedelta(seconds=61)
    Ply.objects.filter(game=game, number=1).update(at=earlier, received_at=earlier)
    send(game, seats[3], 2, "", timeout=True)
    game.refresh_from_db()
    assert game.moves == [RECORD[0], "pass"]
    assert Ply.objects.get(game=game, number=2).timed_out
    # The engine records the lost turn as its pass: the next seat moves on.
    after = replay({"players": 3, "variant": "standard", "moves": game.moves})
    assert after.ok and after.to_move == 3


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(1, 40),
    actions=st.lists(st.sampled_from(["send", "retry", "echo", "reconnect", "undo"]), max_size=80),
)
def test_random_games_sent_with_retries_echoes_reconnects_and_undos_store_the_accepted_plies(
    seed, length, actions
):
    """Whatever devices do (resend a ply, send the other device's ply, reconnect and go
    on from the server's record, undo), the record equals the plies accepted, in order."""
    game, seats = three_player_game()
    record = random_game(3, seed=seed, max_plies=length)
    accepted: list[str] = []
    sent: list[tuple[int, str, str, Actor]] = []
    steps = iter(actions + ["send"] * len(record))
    while len(accepted) < len(record):
        action = next(steps)
        if action == "send" or not sent:
            n = len(accepted) + 1
            by = mover(game, seats, n)
            key = uuid.uuid4().hex
            send(game, by, n, record[n - 1], key=key)
            accepted.append(record[n - 1])
            sent.append((n, record[n - 1], key, by))
        elif action == "retry":
            n, move, key, by = sent[-1]
            send(game, by, n, move, key=key)
        elif action == "echo":
            n, move, _key, by = sent[-1]
            other = next(a for a in seats.values() if a is not by)
            send(game, other, n, move)
        elif action == "reconnect":
            game.refresh_from_db()  # a device that lost its connection reads the record
            assert game.moves == accepted
        elif action == "undo" and len(accepted) == len(sent) and sent[-1][0] == len(accepted):
            n, _move, _key, by = sent.pop()
            game_result_record(game=game, entry=ResultEntry(ply=PlyEntry(n, undo=True)), by=by)
            accepted.pop()
        game.refresh_from_db()
        assert game.moves == accepted
    assert [p.move for p in Ply.objects.filter(game=game)] == accepted


def test_the_results_screen_shows_a_live_game_with_whose_move_it_is_and_nothing_to_accept(client):
    game, seats = three_player_game()
    for n, move in enumerate(RECORD[:4], start=1):
        send(game, mover(game, seats, n), n, move)
    director = UserFactory()
    tournament = game.table.round.tournament
    tournament.directors.add(director)
    client.force_login(director)
    page = client.get(
        reverse("round-results", args=[tournament.slug, game.table.round.number])
    ).content.decode()
    row = page[page.index(f'id="game-{game.pk}"') :]
    row = row[: row.index("</tr>")]
    assert f'data-live-game="{game.pk}"' in row and "in progress, ply 4" in row
    to_move = Seat.objects.get(table=game.table, position=mover(game, seats, 5).seat.position)
    assert f"{to_move.entry.player.name} to move" in row
    # A record in progress is no report: no "Accept …'s result" before the game ends.
    assert "accept-form" not in row


def test_the_ply_that_ended_the_game_is_taken_back_by_its_seat_until_an_opponent_confirms():
    game, seats = three_player_game()
    for n, move in enumerate(RECORD, start=1):
        send(game, mover(game, seats, n), n, move)
    last = mover(game, seats, len(RECORD))
    undo = ResultEntry(ply=PlyEntry(len(RECORD), undo=True))
    game_result_record(game=game, entry=undo, by=last)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.moves == RECORD[:-1]
    send(game, last, len(RECORD), RECORD[-1])  # and again: the report waits once more
    other = next(a for a in seats.values() if a.seat.position != last.seat.position)
    game_confirm(game=game, by=other)
    with pytest.raises(ConflictError, match="is over"):
        game_result_record(game=game, entry=undo, by=last)
    # The organiser still can: her change of a result is final, and audited.
    game_result_record(game=game, entry=undo, by=COMMAND)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.moves == RECORD[:-1]


def test_a_players_link_keeps_the_report_form_for_a_game_she_is_recording_on_the_board(client):
    """A few plies recorded on the board are a game in progress, not her report: her
    link still offers the form (and the board), never "your report: 0:0 — awaiting
    confirmation"."""
    game, seats = three_player_game()
    first = mover(game, seats, 1)
    send(game, first, 1, RECORD[0])
    assert first.seat is not None
    page = client.get(reverse("seat-report", args=[first.seat.report_token])).content.decode()
    form = page.split(f'id="game-{game.pk}"', 1)[1].split("</form>", 1)[0]
    assert "your report:" not in form
    assert 'name="out_1"' in form and "1 ply recorded" in form
    # And the form takes her report: the score sheet's pieces out end the game.
    game.refresh_from_db()
    answer = client.post(
        reverse("seat-report", args=[first.seat.report_token]),
        {
            "game": game.pk,
            "version": game.version,
            "out_1": 3,
            "out_2": 1,
            "out_3": 0,
            "finished": "1",
        },
        follow=True,
    )
    assert "result reported; an opponent must confirm it" in answer.content.decode()
    game.refresh_from_db()
    assert game.out_list(3) == [3, 1, 0] and game.status == Game.Status.FINISHED
