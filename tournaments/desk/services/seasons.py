"""A club's seasons: create, change, delete; which events belong to one is a setting of
the event (`tournament_update(season=…)`), checked here by `check_season_fits`;
`season_event_attach` and `season_event_detach` (services/tournaments.py, beside
`tournament_update`) say the same from the season's side.

A season's standings are read from its events' standings (selectors/seasons.py), which
the events' own services keep fresh: nothing here needs recomputing when a result
changes.
"""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.permissions import can_organise
from tournaments.models import Club, Season, Tournament

SEASON_FIELDS = ("name", "starts_on", "ends_on", "best_of", "min_events", "participation_points")


def _date(value: Any, field: str) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise ServiceError(_("a date is written YYYY-MM-DD"), field=field) from None


def _count(value: Any, field: str, *, blank: bool) -> int | None:
    if value in (None, "") and blank:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
        raise ServiceError(_("a whole number from 1 to 999"), field=field)
    return value


def _points(value: Any) -> Decimal:
    try:
        points = Decimal(str(value))
    except InvalidOperation:
        raise ServiceError(_("a number"), field="participation_points") from None
    if not points.is_finite() or not 0 <= points <= Decimal("9999.99"):
        raise ServiceError(_("a number from 0 to 9999.99"), field="participation_points")
    return points.quantize(Decimal("0.01"))


def _clean(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(SEASON_FIELDS)
    if unknown:
        field = sorted(unknown)[0]
        raise ServiceError(_("%(field)s cannot be set here") % {"field": field}, field=field)
    clean: dict[str, Any] = {}
    if "name" in fields:
        name = str(fields["name"] or "").strip()
        if not name or len(name) > 160:
            raise ServiceError(_("a name of 1 to 160 characters"), field="name")
        clean["name"] = name
    for field in ("starts_on", "ends_on"):
        if field in fields:
            clean[field] = _date(fields[field], field)
    if "best_of" in fields:
        clean["best_of"] = _count(fields["best_of"], "best_of", blank=True)
    if "min_events" in fields:
        clean["min_events"] = _count(fields["min_events"], "min_events", blank=False)
    if "participation_points" in fields:
        clean["participation_points"] = _points(fields["participation_points"])
    return clean


def _check(season: Season) -> None:
    if season.ends_on < season.starts_on:
        raise ServiceError(_("the season ends before it starts"), field="ends_on")
    if season.best_of is not None and season.best_of < season.min_events:
        # Ranked on fewer events than she must play would be allowed, but a best-of
        # smaller than the minimum is almost always a typing slip: refuse it, naming it.
        raise ServiceError(
            _("count at least as many events as a player must play to be ranked"),
            field="best_of",
        )
    if season.pk is None:
        return
    outside = [
        event.name
        for event in season.events.exclude(date__isnull=True)
        if not season.starts_on <= event.date <= season.ends_on
    ]
    if outside:
        raise ServiceError(
            _("%(event)s lies outside these dates") % {"event": outside[0]}, field="starts_on"
        )


def _slug(club: Club, name: str, slug: str, exclude: int | None = None) -> str:
    field = "slug" if slug else "name"
    if slug and slugify(slug) != slug:
        raise ServiceError(_("a slug has only lower-case letters, digits and dashes"), field="slug")
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(_("the name needs a letter or a digit"), field="name")
    if club.seasons.filter(slug=slug).exclude(pk=exclude).exists():
        raise ConflictError(_("the club has a season of this name already"), field=field)
    return slug


def season_create(*, club: Club, by: Actor, slug: str = "", **fields: Any) -> Season:
    """A new season of ``club``; only its organisers create one."""
    require_actor(by)
    if not can_organise(by.permission_user, club):
        raise PermissionDenied("only this club's organisers create its seasons")
    for required in ("name", "starts_on", "ends_on"):
        if fields.get(required) in (None, ""):
            raise ServiceError(_("this field is required"), field=required)
    clean = _clean(fields)
    with transaction.atomic():
        season = Season(club=club, slug=_slug(club, clean["name"], slug), **clean)
        _check(season)
        try:
            season.save()
        except IntegrityError:
            # A second organiser creating the same season at the same moment.
            raise ConflictError(
                _("the club has a season of this name already"), field="name"
            ) from None
    return season


def season_update(*, season: Season, by: Actor, **changes: Any) -> Season:
    require_actor(by)
    if not can_organise(by.permission_user, season.club):
        raise PermissionDenied("only this club's organisers change its seasons")
    clean = _clean(changes)
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        for field, value in clean.items():
            setattr(locked, field, value)
        if "name" in clean:
            locked.slug = _slug(locked.club, locked.name, "", exclude=locked.pk)
        _check(locked)
        locked.save()
    return locked


def season_delete(*, season: Season, by: Actor) -> None:
    """The events stay; they only no longer belong to a season."""
    require_actor(by)
    if not can_organise(by.permission_user, season.club):
        raise PermissionDenied("only this club's organisers delete its seasons")
    with transaction.atomic():
        Tournament.objects.filter(season=season).update(season=None)
        season.delete()


def check_season_fits(tournament: Tournament) -> None:
    """An event belongs only to a season of its own club, and within its dates: called
    by the tournament services whenever the season, the club or the date changes."""
    season = tournament.season
    if season is None:
        return
    if season.club_id != tournament.club_id:
        raise ServiceError(_("choose a season of this event's club"), field="season")
    if tournament.date is not None and not season.starts_on <= tournament.date <= season.ends_on:
        raise ServiceError(
            _("the event's date lies outside %(season)s (%(start)s to %(end)s)")
            % {"season": season.name, "start": season.starts_on, "end": season.ends_on},
            field="season",
        )
