"""Players manage their own night (docs/results.md): the three choices on a player's
link, and the organiser's keys on the run page and the results screen (undo a
player's notice, check a seat, forfeit a no-show). Writes go through the services;
a refused one answers 4xx with its message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import service_status
from tournaments.core.throttles import write_throttled
from tournaments.core.web import director_required, to_run_page
from tournaments.desk.services.night import (
    notice_undo,
    seat_late,
    seat_leave_after_round,
    seat_seen,
    seat_skip_next_round,
)
from tournaments.desk.views.run_page import refused_on_run_page
from tournaments.models import Seat, SeatNotice, Tournament
from tournaments.results.services.no_show import seat_forfeit
from tournaments.results.views.results import player_seat, seat_report_page

# A player's three choices, each with what her page says once it is done.
CHOICES: dict[str, tuple[Callable[..., SeatNotice], Callable[[Seat], str]]] = {
    "leave": (
        seat_leave_after_round,
        lambda seat: (
            _("You leave after round %(number)s; the organiser has been told.")
            % {"number": seat.table.round.number}
        ),
    ),
    "skip": (
        seat_skip_next_round,
        lambda seat: (
            _("You skip round %(number)s; the organiser has been told.")
            % {"number": seat.table.round.number + 1}
        ),
    ),
    "late": (
        seat_late,
        lambda seat: (
            _("Table %(table)s has been asked to wait for you.") % {"table": seat.table.number}
        ),
    ),
}


@require_POST
@write_throttled
def seat_night(request: HttpRequest, token: str) -> HttpResponse:
    """A player's choice from her own link, written with her seat's actor; a refused
    one is her page again with the reason (4xx)."""
    seat = player_seat(token)
    choice = CHOICES.get(request.POST.get("choice", ""))
    if choice is None:
        messages.error(request, _("Choose one of the three."))
        return seat_report_page(request, seat, status=400)
    service, done = choice
    try:
        service(seat=seat, by=Actor.player(seat))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return seat_report_page(request, seat, status=service_status(exc))
    messages.success(request, done(seat))
    return redirect("seat-report", token=token)


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Back where the key was pressed: the results screen of a round, or the run page."""
    number = request.POST.get("round", "")
    if number.isascii() and number.isdigit() and len(number) < 4:
        return redirect(reverse("round-results", args=[tournament.slug, int(number)]) + "#night")
    return to_run_page(tournament, "#night")


def _organiser_key(
    request: HttpRequest, tournament: Tournament, action: Callable[[], Any], done: str
) -> HttpResponse:
    try:
        action()
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, done)
    return _back(request, tournament)


def _seat(tournament: Tournament, seat_id: int) -> Seat:
    seat = (
        Seat.objects.select_related("table__round", "entry__player")
        .filter(pk=seat_id, round__tournament=tournament, table__is_bye=False)
        .first()
        if seat_id < 2**63
        else None
    )
    if seat is None:
        raise Http404(_("no such seat in this event"))
    return seat


@require_POST
@write_throttled
@director_required
def night_undo(request: HttpRequest, tournament: Tournament, notice_id: int) -> HttpResponse:
    """The organiser's one key: a player's leaving, skip or late flag undone."""
    notice = (
        SeatNotice.objects.select_related("seat__entry__player")
        .filter(pk=notice_id, seat__round__tournament=tournament)
        .first()
        if notice_id < 2**63
        else None
    )
    if notice is None:
        raise Http404(_("no such notice in this event"))
    by = Actor.director(request.user)
    return _organiser_key(
        request,
        tournament,
        lambda: notice_undo(notice=notice, by=by),
        _("%(name)s: undone.") % {"name": notice.seat.entry.player.name},
    )


@require_POST
@write_throttled
@director_required
def night_seen(request: HttpRequest, tournament: Tournament, seat_id: int) -> HttpResponse:
    """The organiser's check: this player is at her table."""
    seat = _seat(tournament, seat_id)
    by = Actor.director(request.user)
    return _organiser_key(
        request,
        tournament,
        lambda: seat_seen(seat=seat, by=by),
        _("%(name)s is at table %(table)s.")
        % {"name": seat.entry.player.name, "table": seat.table.number},
    )


@require_POST
@write_throttled
@director_required
def night_forfeit(request: HttpRequest, tournament: Tournament, seat_id: int) -> HttpResponse:
    """The organiser's one key: this no-show's games are forfeited."""
    seat = _seat(tournament, seat_id)
    by = Actor.director(request.user)
    return _organiser_key(
        request,
        tournament,
        lambda: seat_forfeit(seat=seat, by=by),
        _("%(name)s forfeited: table %(table)s's games are entered.")
        % {"name": seat.entry.player.name, "table": seat.table.number},
    )
