"""A club's page and its seasons: public standings (live, CSV, JSON, projector), each
player's path through the season, and the organisers' season form."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.core.actor import Actor
from tournaments.core.csv_export import SafeWriter
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_organise
from tournaments.core.poll import POLL_MS, poll_etag, poll_page
from tournaments.core.visibility import tournaments_visible_to
from tournaments.core.web import season_or_404
from tournaments.desk.forms import SeasonForm
from tournaments.desk.services import seasons as season_services
from tournaments.models import Club, Season
from tournaments.standings.selectors.seasons import (
    SeasonStandings,
    club_seasons,
    season_event_rows,
    season_standings_of,
    season_token,
)
from tournaments.webhooks.selectors import club_webhooks

# The projector shows a screenful of rows, then the next, as the wall list does.
PROJECTOR_ROWS = 16
PROJECTOR_SECONDS = 15
# A season of more events than this lists each player's events on her own page only:
# a column per event would not be read, and its cells would make the page megabytes.
SEASON_COLUMNS = 24


@require_GET
def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    events = tournaments_visible_to(request.user).filter(club=club).select_related("season")
    organiser = can_organise(request.user, club)
    return render(
        request,
        "tournaments/club.html",
        {
            "club": club,
            "seasons": club_seasons(club),
            "events": events.order_by("-date", "-created_at")[:30],
            "can_organise": organiser,
            # On the venue's laptop only: the link to the club's site (docs/venue.md).
            "venue_mode": settings.VENUE,
            # The club's webhooks and their log: its organisers' alone (docs/league.md).
            "webhooks": club_webhooks(club) if organiser else None,
        },
    )


@require_GET
def season_detail(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    season = season_or_404(club_slug, season_slug)
    fmt = request.GET.get("format")
    # The page and the projector of a long season show no player's events: read the
    # standings without them (see SEASON_COLUMNS).
    token = season_token(season)
    standings = season_standings_of(season=season, places=False, token=token)
    if fmt in ("json", "csv") or len(standings.events) <= SEASON_COLUMNS:
        standings = season_standings_of(season=season, token=token)
    if fmt == "json":
        return JsonResponse(
            {"season": season.slug, "name": season.name, **standings.as_json()},
            json_dumps_params={"ensure_ascii": False},
        )
    if fmt == "csv":
        return _season_csv(season, standings)
    if "projector" in request.GET:
        return _season_projector(request, season, standings)
    columns = len(standings.events) <= SEASON_COLUMNS
    context = {
        "season": season,
        "club": season.club,
        "standings": standings,
        "columns": columns,
        "lines": [
            (row, row.columns(standings.events) if columns else ()) for row in standings.rows
        ],
        "can_organise": can_organise(request.user, season.club),
        "live_poll": POLL_MS,
    }
    return poll_page(
        request,
        poll_etag(request, "season", standings.token),
        lambda etag: render(request, "tournaments/season.html", {**context, "poll_etag": etag}),
    )


def _season_csv(season: Season, standings: SeasonStandings) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-season.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["rank", "player", "total", "counted", "participation", "events played"]
        + [e.name for e in standings.events]
    )
    for row in (*standings.rows, *standings.apart):
        writer.writerow(
            [
                row.rank or "",
                row.name,
                row.total,
                row.counted,
                row.participation,
                row.played,
                # A score in brackets is played but not among the best N.
                # The page's columns: one per event, blank where she did not play it.
                *(
                    "" if place is None else (place.score if place.counted else f"({place.score})")
                    for place in row.columns(standings.events)
                ),
            ]
        )
    return response


def _season_projector(
    request: HttpRequest, season: Season, standings: SeasonStandings
) -> HttpResponse:
    rows = standings.rows
    pages = max(1, math.ceil(len(rows) / PROJECTOR_ROWS))
    raw = request.GET.get("page", "")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 1
    page = page if 1 <= page <= pages else 1
    shown = rows[(page - 1) * PROJECTOR_ROWS : page * PROJECTOR_ROWS]
    return render(
        request,
        "tournaments/season_projector.html",
        {
            "season": season,
            "standings": standings,
            "rows": shown,
            "page": page,
            "pages": pages,
            # The next screenful, or this one again: a changed result appears by itself.
            "refresh": f"{PROJECTOR_SECONDS}; url=?projector&page={page % pages + 1}",
        },
    )


@require_GET
def season_player(
    request: HttpRequest, club_slug: str, season_slug: str, player_id: int
) -> HttpResponse:
    season = season_or_404(club_slug, season_slug)
    standings = season_standings_of(season=season)
    row = standings.row_of(player_id)
    if row is None:
        raise Http404(_("this player has not played in the season"))
    return render(
        request,
        "tournaments/season_player.html",
        {
            "season": season,
            "club": season.club,
            "standings": standings,
            "row": row,
            "places": row.places,
        },
    )


@login_required
def season_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    if not can_organise(request.user, club):
        raise PermissionDenied(_("only this club's organisers may do that"))
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.season_create(
                club=club, by=Actor.director(request.user), **form.settings()
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s created; choose it in the settings of each of its events.")
                % {"name": season.name},
            )
            return redirect("season-detail", club.slug, season.slug)
    return render(
        request,
        "tournaments/season_form.html",
        {"form": form, "club": club, "title": _("New season of %(club)s") % {"club": club.name}},
    )


@login_required
def season_edit(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    season = season_or_404(club_slug, season_slug)
    if not can_organise(request.user, season.club):
        raise PermissionDenied(_("only this club's organisers may do that"))
    if request.method == "POST" and request.POST.get("delete") == "yes":
        season_services.season_delete(season=season, by=Actor.director(request.user))
        messages.success(request, _("%(name)s deleted; its events stay.") % {"name": season.name})
        return redirect("club-detail", season.club.slug)
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.season_update(
                season=season, by=Actor.director(request.user), **form.settings()
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Season saved."))
            return redirect("season-detail", season.club.slug, season.slug)
    return render(
        request,
        "tournaments/season_form.html",
        {
            "form": form,
            "club": season.club,
            "season": season,
            "events": season_event_rows(season),
            "title": _("Settings of %(name)s") % {"name": season.name},
        },
    )
