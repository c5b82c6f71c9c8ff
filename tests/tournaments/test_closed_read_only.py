"""A closed club evening's results stay as they were closed (issue 42, "Why" 5): one
keystroke on its results screen changed 3:1 to 1:3 and moved the standings. The result
services refuse every write to a closed evening (409 naming the evening), whoever sends
it and however (the service, the screen's save, the page's form, the API); the results
screen shows the results read-only with the way to reopen; reopened, it edits again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services.evenings import evening_close, evening_reopen
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, ResultSubmission, Tournament
from tournaments.results.services.results import game_clear, game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


def closed_evening() -> tuple[Tournament, Game, UserFactory]:
    """Two players, one game entered 3:1 (the others 3:1 too), the evening closed."""
    director = UserFactory()
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", name="Night")
    evening.directors.add(director)
    for name in ("Anna", "Bert"):
        entry_services.entry_add(tournament=evening, name=name, by=BY)
    for entry in evening.entries.all():
        entry_services.entry_check_in(entry=entry, by=BY)
    round_ = round_pair_next(tournament=evening, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1], by=BY)
    round_close(round=round_, by=BY)
    evening_close(tournament=evening, by=BY)
    game = Game.objects.select_related("table__round").filter(table__round=round_).first()
    return evening, game, director


def unchanged(game: Game) -> bool:
    before = ResultSubmission.objects.filter(game=game).count()
    game.refresh_from_db()
    return game.out_list(2) == [3, 1] and before == 1


def test_the_service_refuses_a_directors_entry_and_clear_on_a_closed_evening():
    evening, game, director = closed_evening()
    by = Actor.director(director)
    with pytest.raises(ConflictError) as refused:
        game_record_out(game=game, out=[1, 3], by=by)
    assert refused.value.field == "tournament"
    assert "the evening is closed; reopen it first" in refused.value.message
    with pytest.raises(ConflictError, match="reopen it first"):
        game_clear(game=game, by=by)
    assert unchanged(game)


def test_one_keystroke_on_the_results_screen_of_a_closed_evening_changes_nothing():
    evening, game, director = closed_evening()
    client = Client(raise_request_exception=False)
    client.force_login(director)
    round_ = game.table.round
    screen = reverse("round-results", args=["night", round_.number])
    page = client.get(screen).content.decode()
    # Read-only, saying how to go on: no field to type into, the reopen button.
    assert 'id="read-only"' in page
    assert "This evening is closed and rated" in page
    assert reverse("evening-reopen", args=["night"]) in page
    assert f'id="out-{game.pk}"' not in page
    # The screen's save (as htmx sends it on leaving the field), and the form's POST.
    save = reverse("round-result-save", args=["night", round_.number, game.pk])
    answer = client.post(save, {"out": "1 3", "version": game.version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 409
    assert "the evening is closed; reopen it first" in answer.content.decode()
    answer = client.post(screen, {"game": game.pk, "out_1": 1, "out_2": 3, "version": game.version})
    assert answer.status_code == 302
    assert unchanged(game)


def test_the_api_refuses_a_result_on_a_closed_evening_with_409_naming_the_field():
    evening, game, director = closed_evening()
    api = APIClient()
    api.force_authenticate(director)
    answer = api.put(f"/api/v1/games/{game.pk}/", {"out": [1, 3], "finished": True}, format="json")
    assert answer.status_code == 409, answer.content
    assert "tournament" in answer.content.decode()
    assert unchanged(game)


def test_reopened_the_evening_takes_the_correction_again():
    evening, game, director = closed_evening()
    by = Actor.director(director)
    evening_reopen(tournament=evening, by=by)
    # Its round stays closed: a deliberate correction (tests/tournaments/test_closed_round_correction.py).
    game_record_out(game=game, out=[1, 3], by=by, correction=True)
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3]
    client = Client()
    client.force_login(director)
    page = client.get(reverse("round-results", args=["night", game.table.round.number]))
    assert "This evening is closed and rated" not in page.content.decode()
