"""The results screen's hints fit the table (issue 42, "Why" 6): a 2 vs 2 table of four
seats, where each player may bring out 5 and a team at most 6, was hinted "(0–3), e.g.
3 1"; and its row did not say who plays with whom (seats 1+3 against 2+4)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Game, Seat, Tournament

pytestmark = pytest.mark.django_db
BY = Actor.command()


def test_a_2v2_row_hints_five_a_player_six_a_team_and_names_the_partners():
    director = UserFactory()
    event = TournamentFactory(kind=Tournament.Kind.TEAMS, slug="pairs", rounds_planned=3)
    event.directors.add(director)
    for name, players in (("Stars", ["Ann", "Bea"]), ("Moons", ["Cid", "Dan"])):
        team_add(tournament=event, name=name, players=players, by=BY)
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    game = Game.objects.filter(table__round=round_).order_by("number").first()
    names = dict(
        Seat.objects.filter(table=game.table).values_list("position", "entry__player__name")
    )
    client = Client()
    client.force_login(director)
    page = client.get(reverse("round-results", args=["pairs", round_.number])).content.decode()
    assert "(0–3)" not in page
    assert "0–5 each, a team at most 6" in page
    row = page.split(f'id="game-{game.pk}"')[1].split("</tr>")[0]
    assert 'placeholder="3 1 2 0"' in row
    assert 'title="0–5 each, a team at most 6"' in row
    partners = f"{names[1]} + {names[3]} against {names[2]} + {names[4]}"
    assert partners in row


def test_a_pentagame_round_keeps_its_hint_by_table_size():
    director = UserFactory()
    event = TournamentFactory(slug="cup")
    event.directors.add(director)
    for name in ("Ann", "Bea", "Cid"):
        from tournaments.desk.services.entries import entry_add

        entry_add(tournament=event, name=name, by=BY)
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("round-results", args=["cup", round_.number])).content.decode()
    sizes = {g.table.seats.count() for g in Game.objects.filter(table__round=round_)}
    example = {2: "3 1", 3: "3 1 0"}
    for size in sizes:
        assert f'placeholder="{example[size]}"' in page
    assert "(0–3)" in page
