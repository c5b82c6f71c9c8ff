"""The crosstable page and its CSV, checked against the results entered."""

from __future__ import annotations

import csv
import io
from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Round, Seat, Tournament
from tournaments.results.services.results import Actor
from tournaments.standings.selectors.crosstable import tournament_crosstable

from .test_league import play_round

DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


def play_rounds(tournament: Tournament, count: int) -> list[Round]:
    played = []
    for _ in range(count):
        round_ = round_pair_next(tournament=tournament, by=DIRECTOR)
        round_publish(round=round_, by=DIRECTOR)
        play_round(round_)
        round_close(round=round_, by=DIRECTOR)
        played.append(round_)
    return played


def read_csv(client, tournament: Tournament) -> list[dict[str, str]]:
    response = client.get(reverse("tournament-crosstable-csv", args=[tournament.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def column_of(rows: list[dict[str, str]], name: str) -> str:
    return next(f"{r['no.']} {r['player']}" for r in rows if r["player"] == name)


def test_league_crosstable_csv_holds_each_pair_s_results_and_the_rounds_to_come(client):
    tournament = tournament_with_players(4, kind=Tournament.Kind.ROUND_ROBIN)
    (first,) = play_rounds(tournament, 1)
    rows = read_csv(client, tournament)
    by_name = {r["player"]: r for r in rows}
    played: set[frozenset[str]] = set()
    # play_round: seat 1 wins each of the 3 games 3:1, so 5 per game against 1 per game.
    for table in first.tables.all():
        seats = list(table.seats.order_by("position").select_related("entry__player"))
        winner, loser = (s.entry.player.name for s in seats)
        assert float(by_name[winner][column_of(rows, loser)]) == 15
        assert float(by_name[loser][column_of(rows, winner)]) == 3
        played.add(frozenset((winner, loser)))
    # Every other pair is still to come, named by its round from the fixed schedule.
    for a, b in combinations(by_name, 2):
        if frozenset((a, b)) not in played:
            assert by_name[a][column_of(rows, b)] in {"round 2", "round 3"}
    for row in rows:
        assert float(row["games"]) == 3
        assert float(row["head-to-head"]) in {15, 3}


def test_the_page_shows_every_game_s_score_and_links_from_the_tournament(client):
    tournament = tournament_with_players(5)  # Swiss, one 3-player table a round
    play_rounds(tournament, 2)
    url = reverse("tournament-crosstable", args=[tournament.slug])
    assert url.encode() in client.get(reverse("tournament-detail", args=[tournament.slug])).content
    assert (
        url.encode() in client.get(reverse("tournament-standings", args=[tournament.slug])).content
    )
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="scroll-box"' in html
    # A 3-player table's players 3:1:2: seat 1 scores 5 against seat 2 and 4 against seat 3.
    triple = next(
        t
        for t in Seat.objects.filter(round__tournament=tournament, position=3).select_related(
            "table"
        )
    ).table
    a, b, c = (s.entry for s in triple.seats.order_by("position").select_related("entry__player"))
    table = response.context["crosstable"]
    line = {ln.standing.entry_id: ln for ln in table.lines}
    assert line[a.pk].row.cells[str(b.pk)].encounters[0].scores == (5.0, 5.0)
    assert line[a.pk].row.cells[str(c.pk)].encounters[0].scores == (4.0, 4.0)
    assert line[c.pk].row.cells[str(b.pk)].encounters[0].scores == (4.0, 4.0)
    assert "5 5" in html


def test_the_crosstable_reads_a_fixed_number_of_queries(client):
    counts = []
    for n in (4, 8):
        tournament = tournament_with_players(n, kind=Tournament.Kind.ROUND_ROBIN)
        play_rounds(tournament, 2)
        url = reverse("tournament-crosstable", args=[tournament.slug])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_an_unpublished_tournament_s_crosstable_is_not_found(client):
    tournament = tournament_with_players(4, published=False)
    response = client.get(reverse("tournament-crosstable", args=[tournament.slug]))
    assert response.status_code == 404
    response = client.get(reverse("tournament-crosstable-csv", args=[tournament.slug]))
    assert response.status_code == 404


def test_a_league_without_an_exact_design_states_its_deviation(client):
    # 5 players at a 2-player and a 3-player table: 10 pairs, 4 a round, so some meet again.
    tournament = tournament_with_players(5, kind=Tournament.Kind.ROUND_ROBIN)
    first = round_pair_next(tournament=tournament, by=DIRECTOR)
    tournament.refresh_from_db()
    again = tournament.league_schedule["again"]
    assert again
    url = reverse("tournament-crosstable", args=[tournament.slug])
    # Not public while round 1 may still be paired afresh.
    assert client.get(url).context["crosstable"].deviation == []
    round_publish(round=first, by=DIRECTOR)
    response = client.get(url)
    deviation = response.context["crosstable"].deviation
    assert [count for *_, count in deviation] == [count for *_, count in again]
    assert f"meet {again[0][2]} times" in response.content.decode()


def test_the_crosstable_and_the_standings_count_the_same_games_at_three_player_tables():
    tournament = tournament_with_players(7)  # two 2-player tables and a 3-player table
    play_rounds(tournament, 2)
    lines = tournament_crosstable(tournament=tournament).lines
    assert any(len(line.row.cells) >= 2 for line in lines)  # someone sat at a 3-player table
    assert [line.row.games for line in lines] == [line.standing.games for line in lines]
