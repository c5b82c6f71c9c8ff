"""A club's calendar and a season's, as iCalendar feeds (RFC 5545) that calendar apps
subscribe to (issue 46, part 4): each published event with a date is a whole-day entry
linking to its page; each season is an entry over its days."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET
from icalendar import Calendar, Event

from tournaments.core.poll import etag_matches
from tournaments.core.web import season_or_404
from tournaments.desk.selectors.calendar import CalendarEvent, club_calendar, season_calendar
from tournaments.models import Club

# Calendar apps poll a feed every few hours at most; a day's change shows within this.
MAX_AGE = 15 * 60


def _feed(request: HttpRequest, name: str, entries: list[CalendarEvent], place: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Agon//Pentagame tournaments//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    # The host names the site in every UID: two sites' feeds never merge their entries.
    host = request.get_host().split(":")[0]
    for entry in entries:
        event = Event()
        event.add("uid", f"{entry.uid}@{host}")
        event.add("summary", entry.name)
        # Whole days (VALUE=DATE); DTEND is the day after the last (RFC 5545, 3.6.1).
        event.add("dtstart", entry.starts)
        event.add("dtend", entry.ends + timedelta(days=1))
        event.add("dtstamp", entry.changed)
        event.add("last-modified", entry.changed)
        event.add("transp", "TRANSPARENT")
        if place:
            event.add("location", place)
        if entry.slug is not None:
            url = request.build_absolute_uri(reverse("tournament-detail", args=[entry.slug]))
            event.add("url", url)
            words = [entry.kind, entry.game]
            if entry.season:
                words.append(entry.season)
            event.add("description", " · ".join(w for w in words if w) + f"\n{url}")
        calendar.add_component(event)
    return calendar.to_ical()


def _answer(request: HttpRequest, body: bytes, filename: str) -> HttpResponse:
    etag = '"' + hashlib.sha1(body).hexdigest()[:24] + '"'
    response: HttpResponse
    if etag_matches(request.headers.get("If-None-Match"), etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    response["ETag"] = etag
    # Published events only: the same feed for everyone, so any cache may keep it.
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return response


@require_GET
def club_calendar_feed(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    body = _feed(request, club.name, club_calendar(club=club), club.city)
    return _answer(request, body, club.slug)


@require_GET
def season_calendar_feed(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    season = season_or_404(club_slug, season_slug)
    club = season.club
    body = _feed(request, f"{club.name}: {season.name}", season_calendar(season=season), club.city)
    return _answer(request, body, f"{club.slug}-{season.slug}")
