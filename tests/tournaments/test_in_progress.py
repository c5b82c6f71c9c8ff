"""A game whose move record has not finished is in progress: a state, not a result. It
counts nowhere (standings, round progress, round scores, ratings) and the round cannot be
closed with it, except by the organiser's force-close, which scores it as the book's
unplayed game like a game never started (docs/results.md, "A game in progress")."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.pentagame import replay
from games.pentagame.playout import random_game
from tests.factories import UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, ResultSubmission
from tournaments.results.selectors.rounds import (
    round_progress,
    round_progress_counted,
    round_tables,
)
from tournaments.results.services.results import (
    Actor,
    game_confirm,
    game_record_moves,
    game_record_out,
)
from tournaments.standings.selectors.standings import tournament_tables

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()


def finished_record(seed: int = 7) -> list[str]:
    return random_game(2, seed=seed, max_plies=1500)


def partial_with_pieces_out(moves: list[str]) -> list[str]:
    """The finished record cut short where some piece is out already, but nobody won."""
    for end in range(len(moves) - 1, 0, -1):
        result = replay({"players": 2, "variant": "standard", "moves": moves[:end]})
        if not result.finished and any(result.out):
            return moves[:end]
    raise AssertionError("no partial record with a piece out")


@pytest.fixture
def round_():
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    return round_


@pytest.fixture
def games(round_) -> list[Game]:
    return list(Game.objects.filter(table__round=round_).order_by("number"))


@pytest.fixture
def director(round_):
    user = UserFactory()
    round_.tournament.directors.add(user)
    return user


def _save_on_board(client, game: Game, moves: list[str]):
    game.refresh_from_db()
    url = reverse("games:record", args=[game.pk])
    body = json.dumps({"moves": moves, "version": game.version})
    return client.post(url, data=body, content_type="application/json")


def _enter_the_other_games(games: list[Game]) -> None:
    for game in games[1:]:
        game_record_out(game=game, out=[3, 1], by=COMMAND)


def test_a_partial_record_saved_on_the_board_keeps_the_game_in_progress_and_out_of_every_count(
    client, round_, games, director
):
    client.force_login(director)
    record = finished_record()
    partial = partial_with_pieces_out(record)
    _enter_the_other_games(games)
    response = _save_on_board(client, games[0], partial)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "in_progress"
    game = Game.objects.get(pk=games[0].pk)
    assert game.status == Game.Status.IN_PROGRESS and game.moves == partial
    assert not game.counts
    # Not "in": neither on the results screen's progress nor counted in the database.
    total = len(games)
    assert round_progress_counted(round_) == round_progress(round_tables(round_=round_))
    assert round_progress_counted(round_).done == total - 1
    # No round scores for a game still being played: only the entered games score.
    table = next(t for t in round_tables(round_=round_) if not t.is_bye)
    assert [g.status for g in table.games][0] == "in_progress"
    assert not table.games[0].played
    # The round cannot be closed with it, and the refusal names its table.
    with pytest.raises(ServiceError, match=rf"table\(s\) {game.table.number}"):
        round_close(round=round_, by=COMMAND)
    # The pages say so.
    page = client.get(reverse("round-detail", args=[round_.tournament.slug, round_.number]))
    assert f"in progress, ply {len(partial)}" in page.content.decode()
    screen = client.get(reverse("round-results", args=[round_.tournament.slug, round_.number]))
    assert f"in progress, ply {len(partial)}" in screen.content.decode()
    projector = client.get(reverse("projector-data", args=[round_.tournament.slug])).json()
    shown = next(g for t in projector["tables"] if not t["bye"] for g in t["games"])
    assert shown["out"] is None and shown["plies"] == len(partial)

    # Finishing the record makes it a result that counts.
    assert _save_on_board(client, games[0], record).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.counts
    assert round_progress_counted(round_).done == total
    round_close(round=round_, by=COMMAND)


def test_round_scores_ignore_a_game_in_progress_with_pieces_out(round_, games):
    partial = partial_with_pieces_out(finished_record())
    game_record_moves(game=games[0], moves=partial, by=COMMAND)
    table = next(t for t in round_tables(round_=round_) if not t.is_bye)
    assert all(seat.round_score is None for seat in table.seats)


def test_a_partial_record_saved_through_the_api_is_in_progress_and_blocks_the_close(
    round_, games, director
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(director)
    _enter_the_other_games(games)
    record = finished_record(seed=11)
    partial = partial_with_pieces_out(record)
    game = games[0]
    response = api.put(
        f"/api/v1/games/{game.pk}/", {"moves": partial, "version": game.version}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "in_progress"
    assert round_progress_counted(round_).done == len(games) - 1
    closing = api.post(
        f"/api/v1/tournaments/{round_.tournament.slug}/rounds/{round_.number}/close/",
        {},
        format="json",
    )
    assert closing.status_code == 400 and "table" in json.dumps(closing.json())
    game.refresh_from_db()
    response = api.put(
        f"/api/v1/games/{game.pk}/", {"moves": record, "version": game.version}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "finished"
    assert round_progress_counted(round_).done == len(games)


def test_an_explicit_unfinished_record_stays_an_unfinished_result(games):
    saved = game_record_moves(game=games[0], moves=["W-W1B", "B-B1R"], finished=False, by=COMMAND)
    assert saved.status == Game.Status.UNFINISHED and saved.counts


def test_force_close_scores_a_game_in_progress_as_the_books_unplayed_game(round_, games):
    partial = partial_with_pieces_out(finished_record())
    _enter_the_other_games(games)
    game_record_moves(game=games[0], moves=partial, by=COMMAND)
    round_close(round=round_, by=COMMAND, force=True)
    tables = tournament_tables(tournament=round_.tournament, closed_only=True)
    (table,) = [t for t in tables if not t.is_bye]
    # The game in progress is the book's 0:0 unfinished, whatever its partial pieces out.
    assert table.games[0] == [0, 0] and table.finished[0] is False
    assert table.games[1:] == [[3, 1]] * (len(games) - 1)
    # The round page scores it the same.
    (row,) = [t for t in round_tables(round_=round_) if not t.is_bye]
    pending_like = [s.round_score for s in row.seats]
    assert None not in pending_like


def test_players_finish_their_own_record_and_confirm_it(round_, games):
    record = finished_record(seed=5)
    partial = partial_with_pieces_out(record)
    first, second = (games[0].table.seats.get(position=p) for p in (1, 2))
    game = games[0]
    game_record_moves(game=game, moves=partial, by=Actor.player(first))
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and not game.counts
    # Nothing to confirm yet: a partial record is not a result.
    with pytest.raises(ServiceError, match="no result to confirm"):
        game_confirm(game=game, by=Actor.player(second))
    # The same player saves the finished record over their own partial one.
    game_record_moves(game=game, moves=record, by=Actor.player(first))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.confirmed
    game_confirm(game=game, by=Actor.player(second))
    game.refresh_from_db()
    assert game.counts
    assert ResultSubmission.objects.filter(game=game).count() == 1


def test_a_players_report_counts_over_the_directors_partial_record(round_, games):
    game = games[0]
    game_record_moves(game=game, moves=["W-W1B", "B-B1R"], by=COMMAND)
    first, second = (game.table.seats.get(position=p) for p in (1, 2))
    game_record_out(game=game, out=[3, 1], by=Actor.player(first))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.confirmed
    game_confirm(game=game, by=Actor.player(second))
    game.refresh_from_db()
    assert game.counts and game.out_list(2) == [3, 1]


def test_the_organisers_entry_replaces_a_game_in_progress(round_, games):
    game = games[0]
    game_record_moves(game=game, moves=["W-W1B", "B-B1R"], by=COMMAND)
    saved = game_record_out(game=game, out=[3, 2], by=COMMAND)
    assert saved.status == Game.Status.FINISHED and saved.counts and saved.moves == []
