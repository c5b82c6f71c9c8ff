"""The run page's round table and players list (issue 27, items 3 and 8): each seat's
report link is a short control (copy, and a disclosure holding the link and its QR
code) instead of the printed-out link; the QR is an image only the directors get; the
players list has one form for announced byes and absences, not a form and a Save
button per row, and that form writes through the same service."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import AuditEntry, Seat, Skip, Tournament

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def cup() -> Tournament:
    cup = tournament_with_players(13, slug="cup", name="Cup", rounds_planned=3)
    round_publish(round=round_pair_next(tournament=cup, by=BY), by=BY)
    return cup


@pytest.fixture
def client(cup: Tournament) -> Client:
    user = UserFactory()
    cup.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def manage(client: Client) -> str:
    return client.get(reverse("tournament-manage", args=["cup"])).content.decode()


def test_each_seat_has_a_copy_button_and_a_disclosure_with_its_link_and_qr(client, cup):
    page = manage(client)
    seats = Seat.objects.filter(round__tournament=cup, table__is_bye=False)
    assert seats.count() == 13  # five 2-player tables and a 3-player one
    for seat in seats.select_related("entry__player"):
        link = f"http://testserver/report/{seat.report_token}/"
        qr = reverse("seat-report-qr", args=["cup", seat.report_token])
        # The link is reachable without JavaScript: a link inside the disclosure.
        assert f'<a href="{link}" class="report-url">{link}</a>' in page
        assert f'<img src="{qr}"' in page
        name = seat.entry.player.name
        assert f'<summary>QR / link<span class="visually-hidden">: {name}&#x27;s' in page
    # The copy buttons are hidden until the page's script shows them; the link is no
    # longer printed as text beside the names.
    assert page.count("data-copy-link hidden>Copy link") == 13
    assert "report link:" not in page
    assert 'src="/static/agon/copy_link.js"' in page


def test_the_qr_code_is_an_svg_image_for_the_directors_only(client, cup):
    seat = Seat.objects.filter(round__tournament=cup, table__is_bye=False).first()
    url = reverse("seat-report-qr", args=["cup", seat.report_token])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert svg.startswith("<svg") and "report the results of table" in svg
    assert "private" in response["Cache-Control"]
    # Another tournament's director, a visitor, a token of another tournament: no code.
    other = TournamentFactory(slug="other")
    stranger = UserFactory()
    other.directors.add(stranger)
    visitor = Client(raise_request_exception=False)
    visitor.force_login(stranger)
    assert visitor.get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the login
    assert client.get(reverse("seat-report-qr", args=["cup", "no-such-token"])).status_code == 404
    foreign = tournament_with_players(2, slug="foreign")
    round_pair_next(tournament=foreign, by=BY)
    token = Seat.objects.filter(round__tournament=foreign).first().report_token
    assert client.get(reverse("seat-report-qr", args=["cup", token])).status_code == 404


def test_a_closed_round_shows_no_report_links(client, cup):
    from tournaments.desk.services.rounds import round_close
    from tournaments.models import Game
    from tournaments.results.services.results import game_record_out

    round_ = cup.rounds.get(number=1)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(game=game, out=[3] + [1] * (game.table.seats.count() - 1), by=BY)
    round_close(round=round_, by=BY)
    page = manage(client)
    assert "/report/" not in page and "copy_link.js" not in page


def test_the_players_list_has_one_skip_form_not_a_save_button_per_row(client, cup):
    page = manage(client)
    players = page[page.index('id="players"') :]
    rows = players[: players.index("</tbody>")]
    assert rows.count("<tr id=") == 13
    # No form, box, drop-down or button of a skip in any row.
    assert "<button>Save" not in rows
    assert 'name="round_number"' not in rows and 'name="bye"' not in rows
    # One form for the list: a player drop-down with everyone not withdrawn, the round
    # (from the next one to be paired up to the last planned) and how it is scored.
    assert players.count('name="round_number"') == 1
    form = re.search(r'<form[^>]*id="skip".*?</form>', players, re.S)
    assert form is not None
    form_html = form.group(0)
    assert f'action="{reverse("entries-skip", args=["cup"])}"' in form_html
    assert form_html.count("<option value=") == 13 + 1 + 2  # players, "---", bye/absence
    assert 'min="2"' in form_html and 'max="3"' in form_html
    assert form_html.count("<button") == 1


def test_the_one_form_announces_through_the_service_and_a_refusal_keeps_the_choice(client, cup):
    entry = cup.entries.get(seed=5)
    url = reverse("entries-skip", args=["cup"])
    response = client.post(url, {"entry": entry.pk, "round_number": "2", "bye": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#players")
    skip = Skip.objects.get()
    assert (skip.entry_id, skip.round_number, skip.bye) == (entry.pk, 2, True)
    assert AuditEntry.objects.filter(action="requested bye", target=entry.player.name).exists()
    page = manage(client)
    assert "bye requested for round 2" in page
    # Refused by the service (round 1 is paired already): 409, nothing written, the
    # player still chosen and the round as typed.
    response = client.post(url, {"entry": entry.pk, "round_number": "1", "bye": "0"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "round 1 is paired already" in html
    assert f'<option value="{entry.pk}" selected>' in html
    assert 'value="1"' in html[html.index('id="skip-round"') :][:400]
    # No player, another tournament's entry, a doctored id: 400 or 404, never a 500.
    assert client.post(url, {"round_number": "2", "bye": "0"}).status_code == 400
    assert client.post(url, {"entry": "x", "round_number": "2"}).status_code == 400
    assert client.post(url, {"entry": str(2**70), "round_number": "2"}).status_code == 404
    foreign = tournament_with_players(1, slug="foreign").entries.get()
    assert client.post(url, {"entry": foreign.pk, "round_number": "2"}).status_code == 404
    assert Skip.objects.count() == 1
