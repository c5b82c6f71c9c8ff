"""Recording a game live through the API, one ply at a time (docs/api.md; the same
service as the board, services/plies.py): a director's `POST games/{id}/plies/`, a
player's `POST report/{token}/games/{id}/plies/`; a retry is stored once, another
device's different ply is a 409 naming the ply, a malformed body a 400 naming the field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.pentagame.playout import random_game
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, PlyConflict, Seat, Tournament
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db

RECORD = random_game(2, seed=3, max_plies=400)


@pytest.fixture
def game(director: APIClient) -> Game:
    tournament = Tournament.objects.get(slug="cup")
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.filter(table__round=round_).order_by("table__number", "number").first()


def test_a_director_records_plies_and_a_retry_is_stored_once(director, game):
    url = f"/api/v1/games/{game.pk}/plies/"
    first = director.post(url, {"ply": 1, "move": RECORD[0], "key": "a1"}, format="json")
    assert first.status_code == 200, first.content
    again = director.post(url, {"ply": 1, "move": RECORD[0], "key": "a1"}, format="json")
    assert again.status_code == 200 and again.json()["version"] == first.json()["version"]
    game.refresh_from_db()
    assert game.moves == RECORD[:1] and game.status == Game.Status.IN_PROGRESS
    assert Ply.objects.filter(game=game).count() == 1


def test_a_players_token_records_any_ply_and_another_move_for_it_is_a_conflict(director, game):
    seat, other = Seat.objects.filter(table=game.table).order_by("position")
    player = APIClient(raise_request_exception=False)
    url = f"/api/v1/report/{seat.report_token}/games/{game.pk}/plies/"
    for n in (1, 2):
        answer = player.post(url, {"ply": n, "move": RECORD[n - 1], "key": f"k{n}"}, format="json")
        assert answer.status_code == 200, answer.content
    different = RECORD[0] if RECORD[0] != RECORD[1] else "pass"
    refused = APIClient().post(
        f"/api/v1/report/{other.report_token}/games/{game.pk}/plies/",
        {"ply": 2, "move": different, "key": "x"},
        format="json",
    )
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert (
        error["field"] == "ply"
        and f"seat {seat.position} recorded {RECORD[1]} at ply 2" in error["message"]
    )
    assert PlyConflict.objects.filter(game=game, number=2).exists()
    undo = player.post(url, {"undo": 2}, format="json")
    assert undo.status_code == 200 and undo.json()["moves"] == RECORD[:1]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"move": "W-W1B", "key": "k"}, "ply"),
        ({"ply": 1, "move": "W-W1B"}, "key"),
        ({"ply": 1, "move": "W-W1B", "key": "no spaces allowed"}, "key"),
        ({"ply": 0, "move": "W-W1B", "key": "k"}, "ply"),
        ({"ply": 1, "undo": 1, "key": "k"}, "ply"),
    ],
)
def test_a_malformed_ply_is_a_400_naming_the_field_and_changes_nothing(director, game, body, field):
    answer = director.post(f"/api/v1/games/{game.pk}/plies/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["field"] == field
    assert not Ply.objects.exists()
