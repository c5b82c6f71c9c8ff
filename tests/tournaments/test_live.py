"""The projector: its page, and the JSON it polls with If-None-Match."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import teams_paste
from tournaments.models import Game, Tournament
from tournaments.results.services.results import Actor, game_confirm, game_record_out
from tournaments.standings.selectors.teams import team_standings

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


def _running(n: int = 5, **kwargs):
    tournament = tournament_with_players(n, **kwargs)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return tournament, round_


def _data(client, tournament, etag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("projector-data", args=[tournament.slug]), **headers)


def test_the_projector_page_shows_the_round_and_the_standings_and_loads_its_module(client):
    tournament, _ = _running()
    page = client.get(reverse("projector", args=[tournament.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round 1: tables" in html and "Standings after round 0" in html
    assert "P01" in html and "agon/projector.js" in html and 'type="module"' in html
    config = json.loads(
        html.split('id="projector-config" type="application/json">')[1].split("<")[0]
    )
    assert config["url"] == reverse("projector-data", args=[tournament.slug])
    assert config["poll"] <= 5000 and config["etag"].startswith('"')
    assert [t["number"] for t in config["data"]["tables"]] == [1, 2]


def test_the_data_answers_304_until_a_result_changes_it(client):
    tournament, round_ = _running(4)
    first = _data(client, tournament)
    assert first.status_code == 200 and first["Cache-Control"] == "public, no-cache"
    etag = first["ETag"]
    assert first.json()["tables"][0]["state"] == "open"
    assert _data(client, tournament, etag).status_code == 304

    game = Game.objects.get(table__round=round_, table__number=1, number=1)
    game_record_out(by=DIRECTOR, game=game, out=[3, 1])
    changed = _data(client, tournament, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    table = changed.json()["tables"][0]
    assert table["games"][0]["out"] == [3, 1] and table["games"][1]["out"] is None
    assert table["seats"][0]["score"] is not None


def test_a_self_reported_result_waits_for_confirmation_on_the_projector(client):
    tournament, round_ = _running(2)
    game = Game.objects.get(table__round=round_, number=1)
    seats = {s.position: s for s in game.table.seats.all()}
    game_record_out(game=game, out=[1, 3], by=Actor.player(seats[2]))
    etag = _data(client, tournament)["ETag"]
    table = _data(client, tournament).json()["tables"][0]
    assert table["state"] == "awaiting" and table["games"][0]["confirmed"] is False
    game_confirm(game=game, by=Actor.player(seats[1]))
    confirmed = _data(client, tournament, etag)
    assert confirmed.status_code == 200
    assert confirmed.json()["tables"][0]["games"][0]["confirmed"] is True


def test_closing_a_round_updates_the_standings_and_the_etag(client):
    tournament, round_ = _running(2)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=DIRECTOR, game=game, out=[3, 0])
    etag = _data(client, tournament)["ETag"]
    round_close(round=round_, by=Actor.command())
    data = _data(client, tournament, etag)
    assert data.status_code == 200
    standings = data.json()["standings"]
    assert standings["rounds_closed"] == 1
    assert [row["name"] for row in standings["rows"]] == ["P01", "P02"]


def test_unpublished_rounds_and_tournaments_stay_off_the_projector(client):
    tournament = tournament_with_players(4)
    round_pair_next(tournament=tournament, by=Actor.command())
    assert _data(client, tournament).json()["round"] is None
    hidden = tournament_with_players(2, published=False)
    assert client.get(reverse("projector", args=[hidden.slug])).status_code == 404
    assert _data(client, hidden).status_code == 404


def test_the_old_projector_link_leads_to_the_live_projector(client):
    tournament, _ = _running(2)
    page = client.get(reverse("tournament-standings", args=[tournament.slug]) + "?projector")
    assert reverse("projector", args=[tournament.slug]) in page.content.decode()


def test_the_projector_speaks_german_when_asked(client):
    tournament, _ = _running(2)
    page = client.get(reverse("projector", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert '<html lang="de">' in html and "Runde 1: Tische" in html and "Rangliste" in html


def test_the_projector_of_a_team_event_ranks_the_teams(client):
    """A 2 vs 2 event's projector shows the team standings (selectors/teams.py), not
    its players one by one."""
    cup = TournamentFactory(kind=Tournament.Kind.TEAMS, slug="pairs", published=True)
    teams_paste(tournament=cup, text="Stars: Ann + Bea\nMoons: Cid + Dan", by=Actor.command())
    round_ = round_pair_next(tournament=cup, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game, out in zip(
        Game.objects.filter(table__round=round_).order_by("number"),
        ([3, 1, 2, 1], [1, 2, 0, 3]),
        strict=True,
    ):
        game_record_out(game=game, out=out, by=Actor.command())
    round_close(round=round_, by=Actor.command())
    data = client.get(reverse("projector-data", args=["pairs"])).json()
    rows = data["standings"]["rows"]
    assert [r["name"] for r in rows] == [r.name for r in team_standings(tournament=cup).rows]
    assert [r["score"] for r in rows] == [r.score for r in team_standings(tournament=cup).rows]
    assert {r["name"] for r in rows} == {"Stars", "Moons"}
