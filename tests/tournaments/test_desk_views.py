"""The organiser's desk pages: edit, delete, withdraw with confirmation, re-admit, a
refused paste that keeps the text and names every bad line, check-in by one tap (JSON)
or by a plain form, and the undo buttons; a refusal answers 4xx and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add, entry_withdraw
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Entry, Game, Round, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def tournament() -> Tournament:
    return tournament_with_players(4, slug="cup", name="Cup", rounds_planned=1)


@pytest.fixture
def client(tournament: Tournament) -> Client:
    user = UserFactory()
    tournament.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def url(name: str, *args: object) -> str:
    return reverse(name, args=["cup", *args])


def test_a_refused_paste_keeps_the_text_and_names_every_bad_line(client, tournament):
    text = "Anna, 1620\nIda Imhof, abc\nCleo, 99999\n"
    response = client.post(url("entries-paste"), {"players": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "line 2: &quot;Ida Imhof, abc&quot;: rating must be a number" in page
    assert "line 3: &quot;Cleo, 99999&quot;: rating must be between 0 and 3000" in page
    # The whole list is back in the text box.
    assert "Anna, 1620\nIda Imhof, abc\nCleo, 99999" in page
    assert tournament.entries.count() == 4


def test_a_good_paste_enters_and_redirects(client, tournament):
    response = client.post(url("entries-paste"), {"players": "Anna, 1620\nBert"})
    assert response.status_code == 302
    assert tournament.entries.count() == 6


def test_editing_name_and_rating(client, tournament):
    entry = tournament.entries.get(seed=1)
    assert client.get(url("entry-edit", entry.pk)).status_code == 200
    response = client.post(url("entry-edit", entry.pk), {"name": "Ida Imhof", "rating": "1620"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.player.name, entry.rating) == ("Ida Imhof", 1620)


def test_an_edit_with_an_implausible_rating_is_a_400_naming_the_field(client, tournament):
    entry = tournament.entries.get(seed=1)
    response = client.post(url("entry-edit", entry.pk), {"name": "P01", "rating": "99999"})
    assert response.status_code == 400
    assert "3000" in response.content.decode()
    entry.refresh_from_db()
    assert entry.rating is None


def test_an_edit_to_an_entered_name_is_a_409(client, tournament):
    entry = tournament.entries.get(seed=1)
    response = client.post(url("entry-edit", entry.pk), {"name": "P02", "rating": ""})
    assert response.status_code == 409
    assert "already entered" in response.content.decode()


def test_withdraw_asks_first_and_withdraws_only_when_confirmed(client, tournament):
    entry = tournament.entries.get(seed=2)
    page = client.get(url("entry-withdraw", entry.pk))
    assert page.status_code == 200 and "Withdraw P02?" in page.content.decode()
    unconfirmed = client.post(url("entry-withdraw", entry.pk))
    assert unconfirmed.status_code == 200
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    done = client.post(url("entry-withdraw", entry.pk), {"confirm": "yes"})
    assert done.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_readmit_undoes_a_withdrawal(client, tournament):
    entry = tournament.entries.get(seed=2)
    entry_withdraw(entry=entry, by=BY)
    assert "Re-admit" in client.get(url("tournament-manage")).content.decode()
    assert client.post(url("entry-readmit", entry.pk)).status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


def test_delete_before_the_first_round_and_409_after_it(client, tournament):
    entry = tournament.entries.get(seed=4)
    assert client.get(url("entry-delete", entry.pk)).status_code == 200
    assert client.post(url("entry-delete", entry.pk), {"confirm": "yes"}).status_code == 302
    assert not Entry.objects.filter(pk=entry.pk).exists()
    entry_add(tournament=tournament, name="Zed", by=BY)
    round_pair_next(tournament=tournament, by=BY)
    played = tournament.entries.get(seed=1)
    response = client.post(url("entry-delete", played.pk), {"confirm": "yes"})
    assert response.status_code == 409
    assert "withdraw them instead" in response.content.decode()
    assert Entry.objects.filter(pk=played.pk).exists()


def test_a_skip_with_a_bad_round_is_a_400_and_changes_nothing(client, tournament):
    entry = tournament.entries.get(seed=1)
    response = client.post(url("entry-skip", entry.pk), {"round_number": "x", "bye": "1"})
    assert response.status_code == 400
    response = client.post(url("entry-skip", entry.pk), {"round_number": "5", "bye": "1"})
    assert response.status_code == 400 and "planned" in response.content.decode()
    assert not entry.skips.exists()
    assert (
        client.post(url("entry-skip", entry.pk), {"round_number": "1", "bye": "1"}).status_code
        == 302
    )
    assert entry.skips.get().bye


def test_check_in_by_one_tap_answers_the_row_and_by_a_form_redirects(client, tournament):
    entry = tournament.entries.get(seed=1)
    page = client.get(url("check-in"))
    html = page.content.decode()
    assert page.status_code == 200 and "agon/check_in.js" in html
    assert f'hx-post="{url("entry-check-in", entry.pk)}"' in html
    assert "0 of 4 checked in" in html
    # A tap (htmx): the player's row as it now is, and the count swapped in beside it.
    response = client.post(
        url("entry-check-in", entry.pk), {"present": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    answer = response.content.decode()
    assert answer.startswith(f'<form method="post" action="{url("entry-check-in", entry.pk)}"')
    assert 'aria-pressed="true"' in answer and 'name="present" value="0"' in answer
    assert 'id="check-in-count"' in answer and 'hx-swap-oob="innerHTML"' in answer
    assert "1 of 4 checked in" in answer
    entry.refresh_from_db()
    assert entry.checked_in
    response = client.post(
        url("entry-check-in", entry.pk), {"present": "0", "next": url("check-in")}
    )
    assert response.status_code == 302 and response["Location"] == url("check-in")
    entry.refresh_from_db()
    assert not entry.checked_in
    response = client.post(
        url("entry-check-in", entry.pk), {"present": "1", "next": "https://elsewhere.example/"}
    )
    assert response["Location"].startswith(url("tournament-manage"))


def test_check_in_everyone(client, tournament):
    assert client.post(url("check-in-everyone")).status_code == 302
    assert tournament.entries.filter(checked_in=True).count() == 4
    assert AuditEntry.objects.filter(action="check in everyone").exists()


def test_checking_in_at_a_closed_evening_is_a_409_shown_on_the_row(client):
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", status="finished")
    evening.directors.add(*Tournament.objects.get(slug="cup").directors.all())
    entry = Entry.objects.create(
        tournament=evening, player=Tournament.objects.get(slug="cup").entries.first().player, seed=1
    )
    response = client.post(
        reverse("entry-check-in", args=["night", entry.pk]),
        {"present": "1"},
        HTTP_HX_REQUEST="true",
    )
    answer = response.content.decode()
    assert response.status_code == 409 and 'role="alert"' in answer and "reopen" in answer
    assert 'aria-pressed="false"' in answer
    entry.refresh_from_db()
    assert not entry.checked_in
    response = client.post(reverse("entry-add-late", args=["night"]), {"name": "Late"})
    assert response.status_code == 409
    assert evening.entries.count() == 1


def finished(tournament: Tournament) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 0], by=BY)
    round_close(round=round_, by=BY)
    return round_


def test_reopen_and_add_rounds_buttons(client, tournament):
    round_ = finished(tournament)
    page = client.get(url("tournament-manage")).content.decode()
    assert "Reopen round 1" in page and "Add rounds" in page
    assert client.post(url("round-reopen", 1)).status_code == 302
    again = client.post(url("round-reopen", 1))
    assert again.status_code == 409 and "not closed" in again.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    client.post(url("round-action", 1, "close"))
    assert client.post(url("rounds-add"), {"count": "2"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds_planned == 3 and tournament.status == Tournament.Status.RUNNING
    assert "Pair the next round" in client.get(url("tournament-manage")).content.decode()
    assert client.post(url("rounds-add"), {"count": "x"}).status_code == 400


def test_unpublish_an_unplayed_round_and_409_once_played(client, tournament):
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    assert client.post(url("round-unpublish", 1)).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED
    round_publish(round=round_, by=BY)
    game_record_out(game=Game.objects.filter(table__round=round_).first(), out=[3, 0], by=BY)
    response = client.post(url("round-unpublish", 1))
    assert response.status_code == 409 and "stays published" in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_a_late_entry_with_points_for_missed_rounds(client, tournament):
    finished(tournament)
    client.post(url("rounds-add"), {"count": "1"})
    response = client.post(
        url("entry-add-late"), {"name": "Latecomer", "rating": "", "missed_round_score": "1.5"}
    )
    assert response.status_code == 302
    late = tournament.entries.get(player__name="Latecomer")
    assert late.joined_round == 2 and str(late.missed_round_score) == "1.50"
    # Not yet seated: the late entry alone can still be deleted from the page.
    page = client.get(url("tournament-manage")).content.decode()
    assert url("entry-delete", late.pk) in page
    assert url("entry-delete", tournament.entries.get(seed=1).pk) not in page


def test_a_closed_evening_is_reopened_by_its_button_and_a_second_reopen_is_a_409(client):
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", status="finished")
    evening.directors.add(*Tournament.objects.get(slug="cup").directors.all())
    page = client.get(reverse("tournament-manage", args=["night"])).content.decode()
    assert "Reopen the evening" in page
    assert client.post(reverse("evening-reopen", args=["night"])).status_code == 302
    assert Tournament.objects.get(slug="night").status == Tournament.Status.RUNNING
    assert client.post(reverse("evening-reopen", args=["night"])).status_code == 409
    assert AuditEntry.objects.filter(tournament=evening, action="reopen evening").count() == 1


def test_typed_in_huge_numbers_are_4xx_never_500(client, tournament):
    entry = tournament.entries.get(seed=1)
    huge = 10**30
    assert client.get(url("entry-edit", huge)).status_code == 404
    assert client.post(url("entry-unskip", entry.pk, huge)).status_code == 400
    assert client.post(url("round-reopen", huge)).status_code == 404
    assert client.post(url("entry-skip", entry.pk), {"round_number": str(huge)}).status_code == 400
