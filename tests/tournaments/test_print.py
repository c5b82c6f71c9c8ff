"""Pairing and score sheets with QR codes, and the organiser's list of open tables."""

from __future__ import annotations

import pytest
import segno
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.views.print import qr_svg
from tournaments.models import Game, Seat
from tournaments.results.services.results import Actor, game_confirm, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = UserFactory(username="org")
    club = ClubFactory(name="Berlin", slug="berlin")
    club.organisers.add(user)
    client.force_login(user)
    return user


def _round(organiser, n: int = 5):
    tournament = tournament_with_players(n, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return tournament, round_


def test_sheets_have_a_pairing_page_and_a_score_sheet_with_a_qr_code_per_player(client, organiser):
    tournament, round_ = _round(organiser, 5)  # a 2-player and a 3-player table
    response = client.get(reverse("round-sheets", args=[tournament.slug, 1]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="sheet pairing-sheet"') == 1
    assert html.count('class="sheet score-sheet"') == 2
    # One QR code beside each of the five players' names, each their own link.
    assert html.count('<svg role="img"') == 5
    for seat in Seat.objects.filter(round=round_):
        url = "http://testserver" + reverse("seat-report", args=[seat.report_token])
        assert html.count(url) == 1
    assert "agon/print.css" in html
    # The 3-player table's games say their direction; pieces and colours boxes are there.
    assert "widdershins" in html and "Colours out" in html and "Pieces out" in html


def test_the_qr_code_encodes_the_report_url():
    url = "https://agon.example/report/abc123/"
    svg = qr_svg(url, "Report table 1")
    assert svg.startswith('<svg role="img" aria-label="Report table 1"')
    assert "<title>Report table 1</title>" in svg
    # The same matrix as segno draws for the URL: the path data matches.
    expected = segno.make(url, error="q", micro=False).svg_inline(scale=1, border=2, omitsize=True)
    assert expected.split(' d="')[1].split('"')[0] in svg


def test_sheets_and_open_tables_are_for_organisers_only(client):
    tournament = tournament_with_players(2)
    round_pair_next(tournament=tournament, by=Actor.command())
    sheets = reverse("round-sheets", args=[tournament.slug, 1])
    open_ = reverse("round-open-tables", args=[tournament.slug, 1])
    assert client.get(sheets).status_code == 302  # to the login page
    client.force_login(UserFactory(username="stranger"))
    assert client.get(sheets).status_code == 403
    assert client.get(open_).status_code == 403


def test_open_tables_list_missing_and_unconfirmed_results(client, organiser):
    tournament, round_ = _round(organiser, 4)
    url = reverse("round-open-tables", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert "0 of 2 tables complete." in page
    # Table 1 fully entered by the organiser; table 2 self-reported, not yet confirmed.
    for game in Game.objects.filter(table__round=round_, table__number=1):
        game_record_out(by=DIRECTOR, game=game, out=[3, 2])
    reported = Game.objects.get(table__round=round_, table__number=2, number=1)
    seats = {s.position: s for s in reported.table.seats.all()}
    game_record_out(game=reported, out=[2, 3], by=Actor.player(seats[1]))
    page = client.get(url).content.decode()
    assert "1 of 2 tables complete." in page
    assert 'id="table-1"' not in page and 'id="table-2"' in page
    assert "game 1 (reported by" in page and "game 2, game 3" in page
    game_confirm(game=reported, by=Actor.player(seats[2]))
    for game in Game.objects.filter(table__round=round_, table__number=2, number__gt=1):
        game_record_out(by=DIRECTOR, game=game, out=[3, 0])
    page = client.get(url).content.decode()
    assert "2 of 2 tables complete." in page and "Every table has its results" in page


def test_the_manage_page_links_to_sheets_and_open_tables(client, organiser):
    tournament, _ = _round(organiser, 2)
    page = client.get(reverse("tournament-manage", args=[tournament.slug])).content.decode()
    assert reverse("round-sheets", args=[tournament.slug, 1]) in page
    assert reverse("round-open-tables", args=[tournament.slug, 1]) in page
