"""Organiser pages: create a tournament, enter players, pair, publish, enter results,
close. Every write goes through a service; its ServiceError becomes a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.visibility import clubs_run_by, seed_seasons, seed_sources
from tournaments.core.web import director_required, round_or_404, run_action, to_run_page
from tournaments.desk.forms import ForbiddenPairForm, SwapForm, TournamentForm
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services import rounds as round_services
from tournaments.desk.services import tournaments as tournament_services
from tournaments.desk.services.evenings import evening_close
from tournaments.desk.views.run_page import manage_context
from tournaments.models import Season, Tournament


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_run_by(request.user)
    if not clubs.exists():
        raise PermissionDenied("only club organisers can create tournaments")
    form = TournamentForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        try:
            tournament = tournament_services.tournament_create(
                by=Actor.director(request.user),
                uneven_turns=form.cleaned_data.get("uneven_turns", False),
                **settings,
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            next_step = (
                _("%(name)s created; now enter the teams.")
                if tournament.is_team_event
                else _("%(name)s created; now enter the players.")
            )
            messages.success(request, next_step % {"name": tournament.name})
            return to_run_page(tournament)
    return render(request, "tournaments/form.html", {"form": form, "title": "New tournament"})


@director_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(
        request.POST or None,
        instance=tournament,
        clubs=clubs_run_by(request.user),
        played=tournament.rounds.exists(),
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament_services.tournament_update(
                tournament=tournament,
                by=Actor.director(request.user),
                recompute=form.cleaned_data.get("recompute", False),
                uneven_turns=form.cleaned_data.get("uneven_turns", False),
                **form.settings(),
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Settings saved."))
            return to_run_page(tournament)
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "title": _("Settings of %(name)s") % {"name": tournament.name},
            "tournament": tournament,
        },
    )


@director_required
def tournament_manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/manage.html", manage_context(tournament))


@require_POST
@director_required
def entries_reseed(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Seeds by rating, or (``event``: one of the club's earlier events) by its final
    standings with the newcomers after them by rating."""
    source: Tournament | Season | None = None
    if request.POST.get("season"):
        source = next(
            (x for x in seed_seasons(tournament) if str(x.pk) == request.POST["season"]), None
        )
        if source is None:
            messages.error(request, _("Season: choose one of the club's seasons."))
            return to_run_page(tournament, "#players")
    elif request.POST.get("event"):
        source = next(
            (t for t in seed_sources(tournament) if str(t.pk) == request.POST["event"]), None
        )
        if source is None:
            messages.error(request, _("Event: choose one of the club's earlier events."))
            return to_run_page(tournament, "#players")
    try:
        unrated = entry_services.entries_reseed_by_rating(
            tournament=tournament, by=Actor.director(request.user), source=source
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return to_run_page(tournament, "#players")
    if isinstance(source, Season):
        messages.success(
            request,
            _(
                "Seeds now follow the standings of %(season)s; everyone not ranked there "
                "follows by rating."
            )
            % {"season": source.name},
        )
        return to_run_page(tournament, "#players")
    if source is not None:
        messages.success(
            request,
            _(
                "Seeds now follow the final standings of %(event)s; the players new since "
                "then follow by rating."
            )
            % {"event": source.name},
        )
        return to_run_page(tournament, "#players")
    total = tournament.entries.count()
    if total and unrated == total:
        messages.warning(
            request, _("No player has a rating yet: the seeds stay in the order of entry.")
        )
    elif unrated:
        messages.success(
            request,
            ngettext(
                "Seeds now follow the ratings; %(count)s player without a rating is seeded last.",
                "Seeds now follow the ratings; %(count)s players without a rating are seeded last.",
                unrated,
            )
            % {"count": unrated},
        )
    else:
        messages.success(request, _("Seeds now follow the ratings."))
    return to_run_page(tournament, "#players")


@require_POST
@director_required
def forbidden_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ForbiddenPairForm(request.POST, tournament=tournament)
    if form.is_valid():
        data = form.cleaned_data
        run_action(
            request,
            lambda: tournament_services.forbidden_pair_add(
                tournament=tournament,
                first=data["first"],
                second=data["second"],
                reason=data["reason"],
                by=Actor.director(request.user),
            ),
            _("These two will not be seated together."),
        )
    else:
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
    return to_run_page(tournament, "#players")


@require_POST
@director_required
def round_pair(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    run_action(
        request,
        lambda: round_services.round_pair_next(
            tournament=tournament,
            # A pre-round paired at random: the draw number the organiser brings, if any.
            draw=request.POST.get("draw"),
            by=Actor.director(request.user),
        ),
        _("The next round is paired. Check it, then publish it."),
    )
    return to_run_page(tournament, "#round")


@require_POST
@director_required
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    round_ = round_or_404(tournament, number)
    by = Actor.director(request.user)
    actions: dict[str, tuple[Callable[[], Any], str]] = {
        "publish": (
            lambda: round_services.round_publish(round=round_, by=by),
            _("Round %(number)s published.") % {"number": number},
        ),
        "repair": (
            lambda: round_services.round_repair(round=round_, by=by),
            _("Round %(number)s paired again.") % {"number": number},
        ),
        "close": (
            lambda: round_services.round_close(
                round=round_, by=by, force=request.POST.get("force") == "1"
            ),
            _("Round %(number)s closed; ratings are being computed.") % {"number": number},
        ),
    }
    actions["delete"] = (
        lambda: tournament_services.round_delete(round=round_, by=by),
        _("Round %(number)s deleted.") % {"number": number},
    )
    if action == "swap":
        form = SwapForm(request.POST, tournament=tournament)
        if not form.is_valid():
            messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
            return to_run_page(tournament, "#round")
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        reason = str(request.POST.get("override_reason", ""))[:500]
        actions["swap"] = (
            lambda: round_services.round_swap_seats(
                round=round_, first=first, second=second, override_reason=reason, by=by
            ),
            _("%(first)s and %(second)s changed tables.")
            % {"first": first.player.name, "second": second.player.name},
        )
    if action not in actions:
        raise PermissionDenied("unknown action")
    call, success = actions[action]
    run_action(request, call, success)
    return to_run_page(tournament, "#round")


@require_POST
@director_required
def evening_close_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    run_action(
        request,
        lambda: evening_close(tournament=tournament, by=Actor.director(request.user)),
        _("The evening is closed; ratings are being computed."),
    )
    return to_run_page(tournament)
