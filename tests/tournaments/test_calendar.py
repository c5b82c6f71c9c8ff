"""A club's and a season's calendar feeds (iCalendar, RFC 5545; issue 46, part 4): what
calendar apps subscribe to. Read back with the icalendar parser, as an app would."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from tests.factories import ClubFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.tournaments import tournament_create, tournament_update

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 5)


@pytest.fixture
def org() -> Actor:
    return Actor.director(UserFactory(is_staff=True))


def _event(org: Actor, club, name: str, **fields):
    return tournament_create(club=club, name=name, by=org, **fields)


def _feed(path: str, **headers: str) -> tuple[Calendar, object]:
    response = Client().get(path, **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content), response


def _entries(calendar: Calendar) -> dict[str, dict]:
    return {
        str(event["summary"]): {
            "uid": str(event["uid"]),
            "start": event.decoded("dtstart"),
            "end": event.decoded("dtend"),
            "url": str(event.get("url", "")),
            "description": str(event.get("description", "")),
        }
        for event in calendar.walk("VEVENT")
    }


def test_a_clubs_feed_lists_its_published_dated_events_as_whole_days_and_its_seasons(org):
    club = ClubFactory(city="Köln")
    season = season_create(
        club=club,
        name="Spring 2026",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=89),
        by=org,
    )
    shown = _event(org, club, "Evening, 5; March", date=DAY, published=True, season=season)
    _event(org, club, "Hidden draft", date=DAY, published=False)
    _event(org, club, "No date yet", published=True)
    _event(org, ClubFactory(), "Another club's", date=DAY, published=True)

    calendar, _ = _feed(reverse("club-calendar", args=[club.slug]))
    entries = _entries(calendar)
    assert set(entries) == {"Evening, 5; March", "Spring 2026"}
    evening = entries["Evening, 5; March"]
    # A whole day: DTEND is the next day (RFC 5545, 3.6.1), dates without a time.
    assert evening["start"] == DAY and evening["end"] == DAY + datetime.timedelta(days=1)
    assert evening["url"] == f"http://testserver/t/{shown.slug}/"
    assert "Spring 2026" in evening["description"]
    spring = entries["Spring 2026"]
    assert spring["start"] == DAY and spring["end"] == DAY + datetime.timedelta(days=90)
    assert str(calendar["x-wr-calname"]) == club.name
    assert {str(e["location"]) for e in calendar.walk("VEVENT")} == {"Köln"}


def test_an_events_uid_stays_the_same_when_it_is_renamed_or_moved(org):
    """A calendar app updates the entry it has, by its UID, rather than adding another."""
    club = ClubFactory()
    event = _event(org, club, "Open", date=DAY, published=True)
    path = reverse("club-calendar", args=[club.slug])
    before = _entries(_feed(path)[0])["Open"]
    tournament_update(tournament=event, by=org, name="Open (moved)", date=DAY.replace(day=12))
    after = _entries(_feed(path)[0])["Open (moved)"]
    assert after["uid"] == before["uid"] and after["start"] == DAY.replace(day=12)


def test_a_seasons_feed_lists_the_season_and_its_events_only(org):
    club = ClubFactory()
    spring = season_create(club=club, name="Spring", starts_on=DAY, ends_on=DAY, by=org)
    autumn = season_create(
        club=club,
        name="Autumn",
        starts_on=DAY.replace(month=9),
        ends_on=DAY.replace(month=11),
        by=org,
    )
    _event(org, club, "Spring evening", date=DAY, published=True, season=spring)
    _event(org, club, "Autumn evening", date=DAY.replace(month=9), published=True, season=autumn)
    calendar, _ = _feed(reverse("season-calendar", args=[club.slug, spring.slug]))
    assert set(_entries(calendar)) == {"Spring", "Spring evening"}
    assert str(calendar["x-wr-calname"]) == f"{club.name}: Spring"


def test_an_unchanged_feed_is_answered_304_and_a_change_gives_a_new_one(org):
    club = ClubFactory()
    event = _event(org, club, "Open", date=DAY, published=True)
    path = reverse("club-calendar", args=[club.slug])
    _, first = _feed(path)
    assert first["Cache-Control"].startswith("public")
    assert Client().get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    tournament_update(tournament=event, by=org, name="Open, renamed")
    changed = Client().get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and b"Open\\, renamed" in changed.content


def test_unknown_clubs_and_seasons_are_404_and_a_feed_costs_the_same_queries_for_more_events(
    org,
):
    assert Client().get("/clubs/nobody/calendar.ics").status_code == 404
    club = ClubFactory()
    assert Client().get(f"/clubs/{club.slug}/seasons/none/calendar.ics").status_code == 404
    path = reverse("club-calendar", args=[club.slug])
    counts = []
    for n in (2, 10):
        for i in range(n):
            _event(org, club, f"Evening {len(counts)}-{i}", date=DAY, published=True)
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(path).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1], counts
