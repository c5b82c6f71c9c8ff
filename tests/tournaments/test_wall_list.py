"""The wall list: a round's players A–Z with their table and seat, printable (columns on
paper) and on the projector as a page of its own; public like the round page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, TournamentFactory, UserFactory
from tournaments.desk.selectors.wall import initial, sort_key, wall_list
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Seat
from tournaments.results.services.results import Actor

BY = Actor.command()
NAMES = ["Zoe Zander", "anna Berg", "Ärne Adler", "Bert Cole", "Özlem Ok", "Carl Dorn", "42 Club"]


def test_names_are_ordered_as_a_phone_book_orders_them():
    ordered = sorted(NAMES, key=sort_key)
    assert ordered == [
        "42 Club",
        "anna Berg",
        "Ärne Adler",
        "Bert Cole",
        "Carl Dorn",
        "Özlem Ok",
        "Zoe Zander",
    ]
    assert [initial(n) for n in ("Ärne", "anna", "Özlem", "42 Club", " zed")] == [
        "A",
        "A",
        "O",
        "#",
        "Z",
    ]


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(user)
    return user


@pytest.fixture
def event(organiser):
    """Seven players (an odd field: one bye or a 3-player table), round 1 published."""
    tournament = TournamentFactory(club=organiser.organised_clubs.get(), slug="open", name="Open")
    for seed, name in enumerate(NAMES, start=1):
        EntryFactory(tournament=tournament, seed=seed, player__name=name)
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    return tournament


def _where(tournament, name: str) -> Seat:
    return Seat.objects.select_related("table").get(
        table__round__tournament=tournament, entry__player__name=name
    )


@pytest.mark.django_db
def test_everyone_finds_their_table_and_seat_in_alphabetical_order(client, event):
    response = client.get(reverse("round-wall", args=["open", 1]))  # anonymous: public
    assert response.status_code == 200
    html = response.content.decode()
    shown = sorted(NAMES, key=lambda name: html.index(f'<span class="wall-name">{name}</span>'))
    assert shown == sorted(NAMES, key=sort_key)
    for name in NAMES:
        seat = _where(event, name)
        row = html[html.index(f'<span class="wall-name">{name}</span>') :].split("</li>")[0]
        if seat.table.is_bye:
            assert "bye" in row
        else:
            assert f"Table <strong>{seat.table.number}</strong>" in row
            assert f"Seat {seat.position}" in row
    # Grouped by initial, with a heading each; printable with its own style sheet.
    assert '<h2 class="wall-letter">A</h2>' in html and '<h2 class="wall-letter">#</h2>' in html
    assert "agon/wall.css" in html and "data-print" in html
    assert reverse("wall-projector", args=["open"]) in html
    assert html.count('class="site-header"') == 1  # a page of the site


@pytest.mark.django_db
def test_the_wall_list_in_german(event):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("round-wall", args=["open", 1])).content.decode()
    assert "Runde 1: finde deinen Tisch" in html
    assert "Tisch <strong>" in html and "Sitz " in html and "Platz" not in html


@pytest.mark.django_db
def test_a_round_only_paired_is_for_its_directors(client, organiser, event):
    round_close(round=event.rounds.get(number=1), by=BY, force=True)
    round_pair_next(tournament=event, by=BY)  # round 2: paired, not published
    url = reverse("round-wall", args=["open", 2])
    response = client.get(url)
    assert response.status_code == 404
    assert "This round is not published yet" in response.content.decode()
    client.force_login(organiser)
    html = client.get(url).content.decode()
    assert "paired (not yet published)" in html and "Ärne Adler" in html
    # An unpublished tournament: no wall list for the public either.
    event.published = False
    event.save(update_fields=["published"])
    assert Client().get(reverse("round-wall", args=["open", 1])).status_code == 404
    assert Client().get(reverse("wall-projector", args=["open"])).status_code == 404


@pytest.mark.django_db
def test_the_projector_page_follows_the_round_being_played(client, event):
    url = reverse("wall-projector", args=["open"])
    html = client.get(url).content.decode()
    assert "Round 1: find your table" in html
    assert '<meta http-equiv="refresh" content="30">' in html
    assert "agon/projector.css" in html and "agon/wall.css" in html
    assert 'class="site-header"' not in html  # a page of its own, for the big screen
    assert '<h3 class="wall-letter">' in html and "wall-cols-1" in html  # 7 players
    for name in NAMES:
        assert f'<span class="wall-name">{name}</span>' in html
    # Between rounds there is no table to find.
    round_close(round=event.rounds.get(number=1), by=BY, force=True)
    html = client.get(url).content.decode()
    assert "No round is running" in html and "wall-name" not in html
    round_2 = round_pair_next(tournament=event, by=BY)
    assert "No round is running" in client.get(url).content.decode()  # not published yet
    round_publish(round=round_2, by=BY)
    assert "Round 2: find your table" in client.get(url).content.decode()


@pytest.mark.django_db
def test_a_large_field_takes_more_columns_on_the_projector():
    tournament = TournamentFactory(slug="big", name="Big")
    for seed in range(1, 61):
        EntryFactory(tournament=tournament, seed=seed, player__name=f"Player {seed:02d}")
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    assert wall_list(round_=tournament.rounds.get()).count == 60
    html = Client().get(reverse("wall-projector", args=["big"])).content.decode()
    assert "wall-cols-4" in html


@pytest.mark.django_db
def test_the_sheets_page_and_the_run_page_link_to_the_wall_list(client, organiser, event):
    client.force_login(organiser)
    wall = reverse("round-wall", args=["open", 1])
    assert wall in client.get(reverse("round-sheets", args=["open", 1])).content.decode()
    run_page = client.get(reverse("tournament-manage", args=["open"])).content.decode()
    assert wall in run_page and reverse("wall-projector", args=["open"]) in run_page


@pytest.mark.django_db
def test_a_field_larger_than_a_screen_is_shown_a_screenful_at_a_time():
    tournament = TournamentFactory(slug="huge", name="Huge")
    for seed in range(1, 81):
        EntryFactory(tournament=tournament, seed=seed, player__name=f"Player {seed:02d}")
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    url = reverse("wall-projector", args=["huge"])
    first = Client().get(url).content.decode()
    assert first.count('<span class="wall-name">') == 64 and "page 1 of 2" in first
    assert '<meta http-equiv="refresh" content="20; url=?page=2">' in first
    second = Client().get(url + "?page=2").content.decode()
    assert second.count('<span class="wall-name">') == 16 and "Player 80" in second
    assert '<meta http-equiv="refresh" content="20; url=?page=1">' in second
    # A page that is not there (or no number) is the first.
    for wrong in ("3", "0", "x", "9" * 5000):
        assert "page 1 of 2" in Client().get(url, {"page": wrong}).content.decode()
