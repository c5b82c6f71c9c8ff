from __future__ import annotations

import pytest

from tests.factories import tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Game
from tournaments.results.services.results import Actor, game_record_moves, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.filter(table__round=round_).order_by("number").first()


def test_pieces_out_above_the_target_are_refused_and_nothing_is_saved(game):
    with pytest.raises(
        ServiceError, match="seat 2: pieces out must be between 0 and 3, not 4"
    ) as exc:
        game_record_out(by=DIRECTOR, game=game, out=[3, 4])
    assert exc.value.field == "out_2"
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING and game.out_1 is None


def test_a_finished_game_needs_a_winner(game):
    with pytest.raises(ServiceError, match="needs a winner"):
        game_record_out(by=DIRECTOR, game=game, out=[2, 1])
    saved = game_record_out(by=DIRECTOR, game=game, out=[2, 1], finished=False)
    assert saved.status == Game.Status.UNFINISHED and saved.out_list(2) == [2, 1]


def test_the_second_device_gets_a_conflict_not_an_overwrite(game):
    seen = game.version
    game_record_out(by=DIRECTOR, game=game, out=[3, 1], version=seen)
    with pytest.raises(ConflictError, match="changed by someone else"):
        game_record_out(by=DIRECTOR, game=game, out=[1, 3], version=seen)
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]


def test_the_database_refuses_pieces_out_above_target_even_without_the_service(game):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(out_1=4, out_2=0, status="finished")


def test_an_illegal_move_record_names_the_ply_and_saves_nothing(game):
    with pytest.raises(ServiceError, match=r"^ply 2 ") as exc:
        game_record_moves(by=DIRECTOR, game=game, moves=["W-W1B", "W-W1B", "B-B1R"])
    assert exc.value.field == "moves"
    game.refresh_from_db()
    assert game.moves == [] and game.status == Game.Status.PENDING


def test_a_legal_record_that_has_not_ended_is_in_progress_with_its_pieces_out(game):
    saved = game_record_moves(by=DIRECTOR, game=game, moves=["W-W1B", "B-B1R"])
    assert saved.status == Game.Status.IN_PROGRESS and not saved.counts
    assert saved.out_list(2) == [0, 0]
    assert saved.moves == ["W-W1B", "B-B1R"]


def test_edits_after_closing_are_audited_and_queue_a_recomputation(
    game, django_capture_on_commit_callbacks
):
    from ratings.models import RatingJob

    for g in Game.objects.filter(table=game.table):
        game_record_out(by=DIRECTOR, game=g, out=[3, 1])
    round_close(round=game.table.round, by=Actor.command())
    with django_capture_on_commit_callbacks(execute=False):
        game_record_out(by=DIRECTOR, game=game, out=[1, 3], correction=True)
    audit = AuditEntry.objects.filter(action="edit result").get()
    assert audit.before["out"] == [3, 1] and audit.after["out"] == [1, 3]
    assert RatingJob.objects.filter(kind="recompute").exists()


def test_colours_out_give_the_books_letter(game):
    from tournaments.results.selectors.rounds import round_tables

    saved = game_record_out(by=DIRECTOR, game=game, out=[3, 1], colours_out={"1": "ybr", "2": "g"})
    assert saved.colours_out == {"1": ["y", "b", "r"], "2": ["g"]}
    table = round_tables(round_=game.table.round)[0]
    # Section 22, Table 4: first out yellow, second out blue is "I/J".
    assert table.games[0].letters == ["I/J", ""]


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        ({"1": "rx"}, "colours are w, b, r, y, g"),
        ({"1": "rr"}, "only once"),
        ({"2": "rw"}, "2 colours out but 1 pieces out"),
        ({"3": "r"}, "no seat 3"),
    ],
)
def test_impossible_colours_are_refused(game, colours, message):
    with pytest.raises(ServiceError, match=message):
        game_record_out(by=DIRECTOR, game=game, out=[3, 1], colours_out=colours)
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING
