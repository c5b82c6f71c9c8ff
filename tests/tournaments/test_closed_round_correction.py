"""A closed round of a tournament is read-only by default (issue 42, "What to build" 5):
its later rounds were paired from its results, so a change is a deliberate correction
(audited, re-rated), not a keystroke. The result services refuse a director's write to
a closed round with a 409 naming `correction` unless the call says `correction=True`;
the results screen shows the results read-only until "Correct a result" is pressed; the
API takes `"correction": true`."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Game, ResultSubmission
from tournaments.results.services.result_path import ResultEntry, game_result_sync
from tournaments.results.services.results import (
    game_clear,
    game_record_out,
    result_accept,
    result_held_set_aside,
)

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(user)
    return user


@pytest.fixture
def game(organiser):
    """Round 1 of a 2-player tournament, game 1 entered 3:1, the round closed."""
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game_ in Game.objects.filter(table__round=round_):
        game_record_out(game=game_, out=[3, 1], by=BY)
    round_close(round=round_, by=BY)
    return Game.objects.select_related("table__round__tournament").get(
        table__round=round_, number=1
    )


def unchanged(game: Game) -> bool:
    game.refresh_from_db()
    return game.out_list(2) == [3, 1] and game.submissions.count() == 1


def test_the_service_refuses_a_directors_write_to_a_closed_round_without_the_correction(
    organiser, game
):
    by = Actor.director(organiser)
    with pytest.raises(ConflictError) as refused:
        game_record_out(game=game, out=[1, 3], by=by)
    assert refused.value.field == "correction"
    assert "round 1 is closed" in refused.value.message
    with pytest.raises(ConflictError) as refused:
        game_clear(game=game, by=by)
    assert refused.value.field == "correction"
    with pytest.raises(ConflictError) as refused:
        game_result_sync(game=game, entry=ResultEntry(out_text="1 3"), by=by)
    assert refused.value.field == "correction"
    assert unchanged(game)


def test_with_the_correction_the_closed_round_changes_audited(organiser, game):
    by = Actor.director(organiser)
    game_result_sync(game=game, entry=ResultEntry(out_text="1 3"), by=by, correction=True)
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3] and game.confirmed
    assert AuditEntry.objects.filter(action="edit result", target__startswith="round 1").exists()
    game_clear(game=game, by=by, correction=True)
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING
    assert AuditEntry.objects.filter(action="clear result").exists()


def test_the_results_screen_of_a_closed_round_is_read_only_until_correct_is_pressed(
    organiser, game
):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    slug = game.table.round.tournament.slug
    screen = reverse("round-results", args=[slug, 1])
    page = client.get(screen).content.decode()
    assert 'id="read-only"' in page
    assert f'id="out-{game.pk}"' not in page
    assert "Correct a result of this closed round" in page
    assert 'name="correct" value="1"' in page
    editing = client.get(screen + "?correct=1").content.decode()
    assert f'id="out-{game.pk}"' in editing
    assert 'name="correction" value="1"' in editing


def test_the_screens_save_without_the_correction_writes_nothing_and_with_it_saves(organiser, game):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    slug = game.table.round.tournament.slug
    save = reverse("round-result-save", args=[slug, 1, game.pk])
    answer = client.post(save, {"out": "1 3", "version": game.version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 409
    assert "round 1 is closed" in answer.content.decode()
    screen = reverse("round-results", args=[slug, 1])
    answer = client.post(screen, {"game": game.pk, "out_1": 1, "out_2": 3, "version": game.version})
    assert answer.status_code == 302
    assert unchanged(game)
    answer = client.post(
        save,
        {"out": "1 3", "version": game.version, "correction": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3]
    # The answered row stays the correcting form (its next save carries the flag too).
    assert 'name="correction" value="1"' in answer.content.decode()


def test_the_api_refuses_a_closed_rounds_result_with_409_naming_correction(organiser, game):
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/games/{game.pk}/"
    answer = api.put(url, {"out": [1, 3], "finished": True}, format="json")
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"]["field"] == "correction"
    answer = api.delete(url + "result/")
    assert answer.status_code == 409, answer.content
    assert unchanged(game)
    answer = api.put(url, {"out": [1, 3], "finished": True, "correction": True}, format="json")
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3]
    assert ResultSubmission.objects.filter(game=game, state="entered").count() == 1


def test_accepting_or_setting_aside_a_held_entry_of_a_closed_round_is_a_correction(organiser, game):
    """An entry typed offline and kept because the round closed meanwhile changes a
    closed round's result when accepted: refused without the correction too."""
    by = Actor.director(organiser)
    held = ResultSubmission.objects.create(
        game=game,
        by_user=organiser,
        state=ResultSubmission.State.HELD,
        held_reason=ResultSubmission.HeldReason.CLOSED,
        status=Game.Status.FINISHED,
        out=[1, 3],
    )
    for write in (result_accept, result_held_set_aside):
        with pytest.raises(ConflictError) as refused:
            write(submission=held, by=by)
        assert refused.value.field == "correction"
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1]
    result_accept(submission=held, by=by, correction=True)
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3]
    assert AuditEntry.objects.filter(action="accept result").exists()


def test_an_earlier_closed_rounds_screen_offers_no_pairing_and_no_typing_hint(organiser, game):
    # Seen on the demo: round 3's read-only screen, with round 4 already paired, still
    # offered "Pair the next round" and told the organiser to type pieces out.
    tournament = game.table.round.tournament
    round_pair_next(tournament=tournament, by=BY)
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("round-results", args=[tournament.slug, 1])).content.decode()
    assert "Correct a result of this closed round" in page
    assert "Pair the next round" not in page
    assert "Type each game" not in page
    correcting = client.get(reverse("round-results", args=[tournament.slug, 1]) + "?correct=1")
    assert "Type each game" in correcting.content.decode()
