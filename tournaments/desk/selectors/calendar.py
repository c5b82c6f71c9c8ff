"""What a club's calendar feed lists (issue 46, part 4): its published events that have
a date, and its seasons. Two queries however many there are."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth.models import AnonymousUser

from tournaments.core.visibility import tournaments_visible_to
from tournaments.models import Club, Season, Tournament

# The newest events a feed lists: a calendar app polls it for what is coming, and a club
# with decades of evenings would otherwise send megabytes every few hours.
FEED_EVENTS = 500


@dataclass(frozen=True)
class CalendarEvent:
    """One entry of the feed: a whole-day event (the book's events have a day, not an
    hour) or a season's span."""

    uid: str
    name: str
    starts: date
    ends: date  # the last day, inclusive
    changed: datetime
    slug: str | None  # the event's address, None for a season
    kind: str
    game: str
    season: str | None


def _events(events: list[Tournament]) -> list[CalendarEvent]:
    return [
        CalendarEvent(
            uid=f"tournament-{event.pk}",
            name=event.name,
            starts=event.date,
            ends=event.date,
            changed=event.updated_at,
            slug=event.slug,
            kind=event.get_kind_display(),
            game=event.get_game_display(),
            season=event.season.name if event.season else None,
        )
        for event in events
        if event.date is not None
    ]


def _seasons(seasons: list[Season]) -> list[CalendarEvent]:
    return [
        CalendarEvent(
            uid=f"season-{season.pk}",
            name=season.name,
            starts=season.starts_on,
            ends=season.ends_on,
            changed=season.updated_at,
            slug=None,
            kind="season",
            game="",
            season=None,
        )
        for season in seasons
    ]


def _published(**where: object) -> list[Tournament]:
    # A feed is read by calendar apps, which never log in: what anyone may see.
    return list(
        tournaments_visible_to(AnonymousUser())
        .filter(date__isnull=False, **where)
        .select_related("season")
        .order_by("-date", "-pk")[:FEED_EVENTS]
    )


def club_calendar(*, club: Club) -> list[CalendarEvent]:
    """The club's published, dated events (the newest FEED_EVENTS) and its seasons."""
    seasons = list(club.seasons.order_by("-starts_on", "-pk"))
    return _seasons(seasons) + _events(_published(club=club))


def season_calendar(*, season: Season) -> list[CalendarEvent]:
    """A season's span and its published, dated events."""
    return _seasons([season]) + _events(_published(season=season))
