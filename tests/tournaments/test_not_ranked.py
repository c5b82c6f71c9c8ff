"""How absences read (issue 27, item 7; docs/standings.md, "Who is ranked"): a late
entrant is "entered in round 3", not "late in round 1, late in round 2"; a player entered
but never checked in at an evening is not ranked (8th on absence points) but listed
apart as not having played, alike on the standings page, in its CSV and JSON, on her own
page, in the crosstable and in the API."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import TournamentFactory
from tournaments.core.actor import Actor
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.standings import tournament_scores, tournament_standings

pytestmark = pytest.mark.django_db
BY = Actor.command()


def play(tournament: Tournament, winner_first: bool = True) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        out = [3] + [1] * (seats - 1) if winner_first else [1] * (seats - 1) + [3]
        game_record_out(game=game, out=out, by=BY)
    return round_close(round=round_, by=BY)


@pytest.fixture
def evening() -> Tournament:
    """Eight entered; seven checked in and seated each round, Hugo never came; Ida
    entered before round 3 and has played it; Jan entered after round 3, not played."""
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", name="Night")
    for name in ("Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz", "Gert", "Hugo"):
        entry_services.entry_add(tournament=evening, name=name, by=BY)
    for entry in evening.entries.exclude(player__name="Hugo"):
        entry_services.entry_check_in(entry=entry, by=BY)
    play(evening)
    play(evening, winner_first=False)
    entry_services.entry_add(tournament=evening, name="Ida", by=BY)  # checked in with it
    play(evening)
    entry_services.entry_add(tournament=evening, name="Jan", by=BY)
    return evening


def test_the_standings_rank_who_played_and_list_the_others_apart(evening):
    standings = tournament_standings(tournament=evening)
    ranked = {row.name: row for row in standings.rows}
    apart = {row.name: row for row in standings.not_ranked}
    assert set(ranked) == {"Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz", "Gert", "Ida"}
    assert set(apart) == {"Hugo", "Jan"}
    # Ranks close up: 1 to 8 among those who played, no gap for Hugo's absences.
    assert sorted(row.rank for row in standings.rows)[-1] <= 8
    assert ranked["Ida"].notes == "entered in round 3"
    assert apart["Jan"].apart_note == "entered in round 4"
    assert apart["Hugo"].apart_note == ""
    # Their scores still count where the pairing needs them.
    scores = tournament_scores(tournament=evening)
    assert {e.pk for e in evening.entries.all()} == set(scores)
    with translation.override("de"):
        assert ranked["Ida"].notes == "dabei ab Runde 3"


def test_the_page_csv_json_and_entry_page_agree(evening):
    client = Client()
    page = client.get(reverse("tournament-standings", args=["night"])).content.decode()
    table = page[page.index('<table class="standings"') : page.index("</table>")]
    assert "Hugo" not in table and "Jan" not in table
    assert "late in round" not in page and "absent in round 1" not in page
    hugo = evening.entries.get(player__name="Hugo")
    jan = evening.entries.get(player__name="Jan")
    assert (
        f'Did not play, no rank: <a href="{reverse("entry-detail", args=["night", hugo.pk])}">'
        f'Hugo</a>, <a href="{reverse("entry-detail", args=["night", jan.pk])}">Jan</a>'
        " (entered in round 4)"
    ) in page
    assert "entered in round 3" in table  # Ida, ranked

    rows = list(
        csv.reader(io.StringIO(client.get("/t/night/standings/?format=csv").content.decode()))
    )
    assert [r[1] for r in rows[-2:]] == ["Hugo", "Jan"]
    assert all(r[0] == "" and r[2] == "" for r in rows[-2:])  # no rank, no score
    assert all(r[0].isdigit() for r in rows[1:-2])

    data = client.get("/t/night/standings/?format=json").json()
    assert [r["player"] for r in data["not_ranked"]] == ["Hugo", "Jan"]
    assert data["not_ranked"][1] == {
        "entry": jan.pk,
        "player": "Jan",
        "entered_round": 4,
        "withdrawn": False,
    }
    assert "Hugo" not in {r["player"] for r in data["rows"]}
    api = client.get("/api/v1/tournaments/night/standings/").json()
    assert [r["player"] for r in api["not_ranked"]] == ["Hugo", "Jan"]

    own = client.get(reverse("entry-detail", args=["night", hugo.pk])).content.decode()
    assert "No rank: no table and no bye in a closed round yet." in own
    crosstable = client.get(reverse("tournament-crosstable", args=["night"])).content.decode()
    assert "Hugo" not in crosstable


def test_a_withdrawn_player_who_played_stays_ranked(evening):
    gert = evening.entries.get(player__name="Gert")
    entry_services.entry_withdraw(entry=gert, by=BY)
    standings = tournament_standings(tournament=evening)
    (row,) = (r for r in standings.rows if r.name == "Gert")
    assert row.withdrawn and "withdrawn after round 3" in row.notes
