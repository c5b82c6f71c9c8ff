"""A 2 vs 2 event speaks of teams (issue 27, item 5): its run page says how teams are
seated and paired (not "2-player tables, one 3-player table when odd"), creating it asks
for the teams next, and its public page leads with the team standings, the players'
one link away; a Swiss keeps speaking of players."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()
FORM = {
    "game": "pentagame",
    "rounds_planned": 3,
    "policy": "pairs+triple",
    "pairing_method": "book",
    "games_per_turn_2": 3,
    "games_per_turn_3": 2,
    "factor_2": "2",
    "factor_3": "3",
    "target": 3,
    "absence_score": "0",
    "late_score": "0",
    "published": "on",
}


@pytest.fixture
def organiser() -> tuple[Client, int]:
    user = UserFactory()
    club = ClubFactory(slug="hamburg")
    club.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client, club.pk


def create(client: Client, club: int, name: str, kind: str) -> str:
    response = client.post(
        reverse("tournament-create"),
        {**FORM, "club": club, "name": name, "kind": kind},
        follow=True,
    )
    assert response.status_code == 200, response.content.decode()[:2000]
    return response.content.decode()


def test_creating_a_team_event_asks_for_the_teams_and_its_header_speaks_of_teams(organiser):
    client, club = organiser
    page = create(client, club, "Pairs Cup", "teams")
    assert "Pairs Cup created; now enter the teams." in page
    assert "now enter the players" not in page
    header = page[page.index("<h1>") : page.index('<section id="round"')]
    assert "2 vs 2 team event" in header
    assert "two teams per table, partners opposite; a bye when the number of teams is odd" in header
    assert "rule: top-down, the next team not yet met" in header
    assert "3-player" not in header and "2-player" not in header
    # A Swiss is still about players.
    page = create(client, club, "Winter Open", "swiss")
    assert "Winter Open created; now enter the players." in page
    header = page[page.index("<h1>") : page.index('<section id="round"')]
    assert "2-player tables, one 3-player table when odd" in header
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = client.get(reverse("tournament-manage", args=["pairs-cup"])).content.decode()
    header = page[page.index("<h1>") : page.index('<section id="round"')]
    assert "zwei Teams je Tisch" in header


def test_the_public_page_of_a_team_event_leads_with_the_team_standings():
    event = TournamentFactory(name="Pairs", slug="pairs", kind=Tournament.Kind.TEAMS)
    for name, players in (("Stars", ["Ann", "Bea"]), ("Moons", ["Cid", "Dan"])):
        team_add(tournament=event, name=name, players=players, by=BY)
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1, 2, 1], by=BY)
    round_close(round=round_, by=BY)
    page = Client().get(reverse("tournament-detail", args=["pairs"])).content.decode()
    assert page.index("<h2>Team standings") < page.index('id="team-standings"')
    teams = page[page.index('id="team-standings"') : page.index("</table>")]
    assert "Stars" in teams and "Moons" in teams
    assert teams.count("<tr") == 3  # the head and a row per team, not per player
    # No players' table on it: the players' standings are one link away.
    assert 'class="standings" id="team-standings"' in page
    assert page.count('<table class="standings"') == 1
    links = page[page.index("<h2>Team standings") : page.index("</h2>", page.index("<h2>Team"))]
    assert reverse("tournament-standings", args=["pairs"]) in links
    assert reverse("team-standings", args=["pairs"]) + "?format=csv" in links
