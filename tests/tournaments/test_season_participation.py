"""A season counts what was played (issue 42, "Why" 4): points for taking part, and a
column value, only for an event the player took part in (a table or a bye in a closed,
scored round); the CSV's columns are the page's."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add, entry_skip
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.tournaments import tournament_create
from tournaments.models import Entry, Game, Season, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.seasons import season_standings_of

pytestmark = pytest.mark.django_db
BY = Actor.command()
START = datetime.date(2026, 3, 1)


@pytest.fixture
def org() -> Actor:
    return Actor.director(UserFactory(is_staff=True))


@pytest.fixture
def season(org) -> Season:
    return season_create(
        club=ClubFactory(),
        name="Spring",
        starts_on=START,
        ends_on=START + datetime.timedelta(days=60),
        participation_points=2,
        by=org,
    )


def event(org, season: Season, week: int, names: list[str], **settings) -> Tournament:
    tournament = tournament_create(
        club=season.club,
        name=f"Evening {week}",
        by=org,
        date=START + datetime.timedelta(days=7 * week),
        published=True,
        season=season,
        **settings,
    )
    for name in names:
        entry_add(tournament=tournament, name=name, by=BY)
    return tournament


def pair(tournament: Tournament, *, close: bool = True) -> None:
    """Pair and publish the next round; with ``close`` the first seat wins every game
    3:1 (3:1:2 at three) and the round is closed."""
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    if not close:
        return
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        out = [3, 1, 2][: game.table.seats.count()]
        game_record_out(game=game, out=out, by=BY)
    round_close(round=round_, by=BY)


def entry(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.get(player__name=name)


def by_name(standings) -> dict[str, object]:
    return {r.name: r for r in (*standings.rows, *standings.apart)}


def test_participation_and_a_column_only_for_an_event_played_at_a_table_or_a_bye(org, season):
    # Event 1, closed round 1: four at tables, Emil's requested bye, Finn absent.
    one = event(org, season, 1, ["Anna", "Ben", "Cleo", "Dora", "Emil", "Finn"])
    entry_skip(entry=entry(one, "Emil"), round_number=1, bye=True, by=BY)
    entry_skip(entry=entry(one, "Finn"), round_number=1, bye=False, by=BY)
    pair(one)
    # Event 2: only its pre-round closed, and the pre-round does not count (seeding
    # only): nobody took part in a scored round.
    two = event(
        org,
        season,
        2,
        ["Anna", "Ben", "Cleo", "Dora", "Gus"],
        pre_round="rating",
        pre_round_counts=False,
    )
    pair(two)
    # Event 3: round 1 paired and published, nothing closed yet.
    three = event(org, season, 3, ["Anna", "Ben", "Hana", "Ivo"])
    pair(three, close=False)

    standings = season_standings_of(season=season)
    rows = by_name(standings)
    # Finn was absent, Gus played only the uncounted pre-round, Hana and Ivo only an
    # open round: none of them took part in the season.
    assert set(rows) == {"Anna", "Ben", "Cleo", "Dora", "Emil"}
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil"):
        row = rows[name]
        assert (row.played, row.participation) == (1, 2.0), name
        columns = row.columns(standings.events)
        assert columns[0] is not None and columns[0].event.pk == one.pk
        assert columns[1:] == [None, None], name
    assert rows["Emil"].total == 2.0 + rows["Emil"].counted  # the bye's score and +2


def test_the_season_page_shows_no_value_for_events_without_a_scored_round(client, org, season):
    one = event(org, season, 1, ["Anna", "Ben"])
    pair(one)
    two = event(org, season, 2, ["Anna", "Ben"])
    pair(two, close=False)
    page = client.get(reverse("season-detail", args=[season.club.slug, season.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    anna = body[body.index(">Anna<") : body.index("</tr>", body.index(">Anna<"))]
    cells = anna.split("<td")[1:]
    # After her name: total, events, for taking part, event 1, event 2.
    assert len(cells) == 5
    assert "did not play" in cells[-1] and ">0<" not in cells[-1]
    assert ">1<" in cells[1] and ">2<" in cells[2]  # one event, +2 for it only


def test_the_csv_puts_each_score_under_its_own_event(client, org, season):
    """Cleo missed event 1 and played event 2: her score stands in event 2's column and
    event 1's is blank, as on the page and in the JSON."""
    one = event(org, season, 1, ["Anna", "Ben"])
    pair(one)
    two = event(org, season, 2, ["Anna", "Cleo"])
    pair(two)
    url = reverse("season-detail", args=[season.club.slug, season.slug])
    rows = list(csv.reader(io.StringIO(client.get(url + "?format=csv").content.decode())))
    header = rows[0]
    assert header[-2:] == ["Evening 1", "Evening 2"]
    cleo = next(r for r in rows if r[1] == "Cleo")
    standings = season_standings_of(season=season)
    score = by_name(standings)["Cleo"].places[0].score
    assert len(cleo) == len(header)
    assert cleo[-2] == ""
    assert float(cleo[-1]) == score
    json = client.get(url + "?format=json").json()
    cleo_json = next(r for r in json["rows"] + json["not_ranked"] if r["name"] == "Cleo")
    assert cleo_json["events"] == [
        {"event": two.slug, "score": score, "rank": cleo_json["events"][0]["rank"], "counted": True}
    ]
