"""A club's season (issue 26, item 2): its standings add up each event's time-weighted
score (section 21: "we consider points *per time*"), with the organiser's best N, a
minimum to be ranked and points for taking part (docs/scoring.md "Seasons").

The season's standings are recomputed here independently from the events' own
standings, over four events with 2- and 3-player tables; a result corrected in an old
event changes the season; the pages, CSV, JSON and projector show it; the settings are
checked, naming the field, and change nothing when refused."""

from __future__ import annotations

import csv
import datetime
import io
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.desk.services.entries import entries_reseed_by_rating, entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.seasons import season_create, season_update
from tournaments.desk.services.tournaments import tournament_create, tournament_update
from tournaments.models import Entry, Game, Season, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.seasons import season_standings_of
from tournaments.standings.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def org() -> Actor:
    """The club's organiser (staff): seasons and events are hers to create and change."""
    return Actor.director(UserFactory(is_staff=True))


NAMES = [f"P{i:02d}" for i in range(1, 11)]
START = datetime.date(2026, 1, 1)


def play(tournament: Tournament, rng: random.Random, rounds: int = 2) -> None:
    for _ in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=BY)
        round_publish(round=round_, by=BY)
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            seats = game.table.seats.count()
            winner = rng.randrange(seats)
            out = [3 if i == winner else rng.randint(0, 2) for i in range(seats)]
            game_record_out(game=game, out=out, by=BY)
        round_close(round=round_, by=BY)


def event(org, club, season, number: int, names: list[str], rng: random.Random) -> Tournament:
    tournament = tournament_create(
        club=club,
        name=f"Evening {number}",
        by=org,
        date=START + datetime.timedelta(days=7 * number),
        published=True,
        season=season,
    )
    for name in names:
        entry_add(tournament=tournament, name=name, by=BY)
    play(tournament, rng)
    return tournament


@pytest.fixture
def season_of_four(org) -> tuple[Season, list[Tournament]]:
    """Four evenings: 9, 8, 7 and 5 players of ten (odd fields give 3-player tables),
    so players have played 1 to 4 events."""
    rng = random.Random(26)
    club = ClubFactory()
    season = season_create(
        club=club,
        name="Spring 2026",
        starts_on=START,
        ends_on=START + datetime.timedelta(days=90),
        best_of=3,
        min_events=2,
        participation_points=2,
        by=org,
    )
    fields = [NAMES[:9], NAMES[1:9], NAMES[:4] + NAMES[7:10], NAMES[::2]]
    events = [event(org, club, season, i + 1, names, rng) for i, names in enumerate(fields)]
    return season, events


def recomputed(season: Season, events: list[Tournament]) -> dict[str, tuple[float, int]]:
    """Name -> (total, events played), from each event's standings, by hand."""
    scores: dict[str, list[float]] = {}
    for tournament in events:
        for row in tournament_standings(tournament=tournament).rows:
            scores.setdefault(row.name, []).append(row.score)
    totals = {}
    for name, mine in scores.items():
        best = sorted(mine, reverse=True)[: season.best_of]
        total = sum(best) + float(season.participation_points) * len(mine)
        totals[name] = (round(total, 6), len(mine))
    return totals


def shown(standings) -> dict[str, tuple[float, int]]:
    return {r.name: (round(r.total, 6), r.played) for r in (*standings.rows, *standings.apart)}


def test_season_standings_equal_the_best_three_plus_two_points_each_recomputed_by_hand(
    season_of_four,
):
    season, events = season_of_four
    standings = season_standings_of(season=season)
    expected = recomputed(season, events)
    assert shown(standings) == expected
    assert {r.name for r in standings.rows} == {n for n, (_t, k) in expected.items() if k >= 2}
    assert {r.name for r in standings.apart} == {n for n, (_t, k) in expected.items() if k < 2}
    totals = [r.total for r in standings.rows]
    assert totals == sorted(totals, reverse=True)
    # Someone played all four: exactly three counted, the lowest left out.
    four = next(r for r in standings.rows if r.played == 4)
    places = [p for p in four.places if p is not None]
    assert sum(p.counted for p in places) == 3
    assert min(p.score for p in places if not p.counted) <= min(
        p.score for p in places if p.counted
    )


def test_a_2_player_and_a_3_player_event_weigh_the_same_per_round(season_of_four):
    """Every event's scores add to 18 per player and round (an even turn at either
    table size), so evenings of odd and even fields compare."""
    season, events = season_of_four
    standings = season_standings_of(season=season)
    for i, tournament in enumerate(events):
        rows = (*standings.rows, *standings.apart)
        column = [c[i].score for c in (r.columns(standings.events) for r in rows) if c[i]]
        seated = tournament.entries.count()
        assert sum(column) == pytest.approx(18 * 2 * seated)


def test_a_result_corrected_in_an_old_event_changes_the_season(season_of_four):
    season, events = season_of_four
    before = season_standings_of(season=season)
    first = events[0]
    game = (
        Game.objects.filter(table__round__tournament=first, table__is_bye=False)
        .order_by("pk")
        .first()
    )
    seats = game.table.seats.count()
    old = game.out_list(seats)
    flipped = [0 if o == 3 else 3 for o in old]
    if flipped.count(3) != 1:
        flipped = [3] + [0] * (seats - 1) if old[0] != 3 else [0, 3] + [0] * (seats - 2)
    game_record_out(game=game, out=flipped, by=BY, correction=True)
    after = season_standings_of(season=season)
    assert after.token != before.token
    assert shown(after) == recomputed(season, events)
    assert {r.name: r.total for r in after.rows} != {r.name: r.total for r in before.rows}


def test_a_draft_event_does_not_count_until_it_is_published(org, season_of_four):
    season, events = season_of_four
    before = season_standings_of(season=season)
    tournament_update(tournament=events[3], by=org, published=False)
    after = season_standings_of(season=season)
    assert len(after.events) == len(before.events) - 1
    assert shown(after) == recomputed(season, events[:3])


def test_the_season_page_csv_json_projector_and_a_players_path(client, season_of_four):
    season, events = season_of_four
    standings = season_standings_of(season=season)
    top = standings.rows[0]
    base = f"/clubs/{season.club.slug}/seasons/{season.slug}/"
    page = client.get(base)
    assert page.status_code == 200
    text = page.content.decode()
    assert top.name in text and "Evening 4" in text
    assert "best 3 events count" in text
    data = client.get(base + "?format=json").json()
    assert [r["name"] for r in data["rows"]] == [r.name for r in standings.rows]
    assert data["rows"][0]["total"] == pytest.approx(top.total)
    assert [e["slug"] for e in data["events"]] == [t.slug for t in events]
    rows = list(csv.reader(io.StringIO(client.get(base + "?format=csv").content.decode())))
    assert rows[0][:3] == ["rank", "player", "total"]
    assert rows[1][1] == top.name and float(rows[1][2]) == pytest.approx(top.total)
    projector = client.get(base + "?projector")
    assert projector.status_code == 200 and top.name in projector.content.decode()
    path = client.get(f"{base}players/{top.player_id}/")
    assert path.status_code == 200
    assert all(p.event.name in path.content.decode() for p in top.places if p)
    assert client.get(f"{base}players/999999/").status_code == 404
    german = client.get(base, HTTP_ACCEPT_LANGUAGE="de", headers={"cookie": "django_language=de"})
    assert "Rang" in german.content.decode()


def test_the_season_page_polls_answer_304_until_a_result_changes(client, season_of_four):
    season, events = season_of_four
    base = f"/clubs/{season.club.slug}/seasons/{season.slug}/"
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "live-poll"}
    first = client.get(base, **poll)
    etag = first["ETag"]
    assert client.get(base, HTTP_IF_NONE_MATCH=etag, **poll).status_code == 304
    game = Game.objects.filter(table__round__tournament=events[1], table__is_bye=False).first()
    seats = game.table.seats.count()
    game_record_out(game=game, out=[0] * (seats - 1) + [3], by=BY, correction=True)
    assert client.get(base, HTTP_IF_NONE_MATCH=etag, **poll).status_code == 200


def test_a_warm_season_page_costs_the_same_queries_for_one_event_and_four(
    client, org, season_of_four
):
    season, events = season_of_four
    base = f"/clubs/{season.club.slug}/seasons/{season.slug}/?format=json"
    client.get(base)
    with CaptureQueriesContext(connection) as four:
        client.get(base)
    for tournament in events[1:]:
        tournament_update(tournament=tournament, by=org, season=None)
    client.get(base)
    with CaptureQueriesContext(connection) as one:
        client.get(base)
    assert len(four) == len(one) <= 4


def test_season_settings_are_checked_naming_the_field_and_change_nothing(org, season_of_four):
    season, events = season_of_four
    with pytest.raises(ServiceError) as ends:
        season_update(season=season, by=org, ends_on=START - datetime.timedelta(days=1))
    assert ends.value.field == "ends_on"
    with pytest.raises(ServiceError) as best:
        season_update(season=season, by=org, best_of=1)
    assert best.value.field == "best_of"
    with pytest.raises(ServiceError) as outside:
        # The last evening is on day 28: the season may not end before it.
        season_update(season=season, by=org, ends_on=START + datetime.timedelta(days=20))
    assert outside.value.field == "starts_on"
    with pytest.raises(ServiceError) as again:
        season_create(club=season.club, name="Spring 2026", starts_on=START, ends_on=START, by=org)
    assert again.value.field == "name"
    season.refresh_from_db()
    assert (season.best_of, season.ends_on) == (3, START + datetime.timedelta(days=90))


def test_an_event_joins_only_a_season_of_its_club_and_within_its_dates(org, season_of_four):
    season, events = season_of_four
    other = season_create(
        club=ClubFactory(), name="Elsewhere", starts_on=START, ends_on=START, by=org
    )
    with pytest.raises(ServiceError) as club:
        tournament_update(tournament=events[0], by=org, season=other)
    assert club.value.field == "season"
    with pytest.raises(ServiceError) as date:
        tournament_update(tournament=events[0], by=org, date=datetime.date(2027, 1, 1))
    assert date.value.field == "season"
    events[0].refresh_from_db()
    assert events[0].season_id == season.pk and events[0].date == START + datetime.timedelta(7)


def test_only_the_clubs_organisers_create_and_change_seasons_through_the_pages(
    client, season_of_four
):
    season, _events = season_of_four
    stranger = UserFactory()
    client.force_login(stranger)
    url = f"/clubs/{season.club.slug}/seasons/new/"
    assert client.post(url, {"name": "Mine"}).status_code == 403
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    refused = client.post(
        url,
        {
            "name": "Autumn",
            "starts_on": "2026-09-01",
            "ends_on": "2026-08-01",
            "min_events": 1,
            "participation_points": 0,
        },
    )
    assert refused.status_code == 200 and "ends before it starts" in refused.content.decode()
    assert not Season.objects.filter(name="Autumn").exists()
    made = client.post(
        url,
        {
            "name": "Autumn",
            "starts_on": "2026-09-01",
            "ends_on": "2026-12-01",
            "best_of": 4,
            "min_events": 2,
            "participation_points": "1.5",
        },
    )
    assert made.status_code == 302
    autumn = Season.objects.get(name="Autumn")
    assert (autumn.best_of, autumn.min_events, str(autumn.participation_points)) == (4, 2, "1.50")
    club_page = client.get(f"/clubs/{season.club.slug}/").content.decode()
    assert "Autumn" in club_page and "Spring 2026" in club_page


def test_a_new_event_is_seeded_by_the_seasons_standings_then_newcomers_by_rating(
    org, season_of_four
):
    season, events = season_of_four
    standings = season_standings_of(season=season)
    tonight = tournament_create(
        club=season.club, name="Tonight", by=org, date=START + datetime.timedelta(days=60)
    )
    names = [r.name for r in standings.rows][::-1] + ["Newcomer"]
    for name in names:
        entry_add(tournament=tonight, name=name, by=BY)
    entries_reseed_by_rating(tournament=tonight, by=BY, source=season)
    seeded = list(
        Entry.objects.filter(tournament=tonight)
        .order_by("seed")
        .values_list("player__name", flat=True)
    )
    assert seeded == [r.name for r in standings.rows] + ["Newcomer"]


def test_seeding_by_a_season_through_the_run_page_and_the_api(client, org, season_of_four):
    season, _events = season_of_four
    order = [r.name for r in season_standings_of(season=season).rows]
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    by = Actor.director(organiser)
    tonight = tournament_create(club=season.club, name="Tonight", by=by)
    for name in [*order[::-1], "Newcomer"]:
        entry_add(tournament=tonight, name=name, by=by)
    page = client.get(f"/t/{tonight.slug}/manage/")
    assert f'<option value="{season.pk}">{season.name}</option>' in page.content.decode()
    client.post(f"/t/{tonight.slug}/manage/entries/reseed/", {"season": season.pk})
    seeded = list(
        Entry.objects.filter(tournament=tonight)
        .order_by("seed")
        .values_list("player__name", flat=True)
    )
    assert seeded == [*order, "Newcomer"]

    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{tonight.slug}/entries/reseed/"
    other = season_create(
        club=ClubFactory(), name="Elsewhere", starts_on=START, ends_on=START, by=org
    )
    refused = api.post(url, {"season": other.slug}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "season"
    both = api.post(url, {"season": season.slug, "event": "evening-1"}, format="json")
    assert both.status_code == 400
    entries_reseed_by_rating(tournament=tonight, by=by)  # seeds by rating, then the season again
    answer = api.post(url, {"season": season.slug}, format="json")
    assert answer.status_code == 200
    entries = sorted(answer.json()["entries"], key=lambda e: e["seed"])
    assert [e["player"] for e in entries] == [*order, "Newcomer"]
