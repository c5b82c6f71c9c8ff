"""Organiser pages: create a tournament, enter players, pair, publish, enter results,
close. Every write goes through a service; its ServiceError becomes a message."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_direct, can_view
from tournaments.core.visibility import season_by_slugs
from tournaments.models import Game, Round, Season, Tournament

View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Load the tournament named by the URL and refuse anyone who may not run it."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = _tournament_or_404(slug)
        if not can_direct(request.user, tournament):
            raise PermissionDenied(_("only this tournament's directors may do that"))
        return view(request, tournament, *args, **kwargs)

    return wrapper


def to_run_page(tournament: Tournament, fragment: str = "") -> HttpResponseRedirect:
    return redirect(reverse("tournament-manage", args=[tournament.slug]) + fragment)


def run_action(request: HttpRequest, action: Callable[[], Any], success: str) -> bool:
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, success)
    return True


def _tournament_or_404(slug: str) -> Tournament:
    try:
        return Tournament.objects.select_related("club", "season").get(slug=slug)
    except Tournament.DoesNotExist:
        raise Http404(_("there is no tournament at this address")) from None


def round_or_404(tournament: Tournament, number: int) -> Round:
    try:
        return Round.objects.get(tournament=tournament, number=number)
    except Round.DoesNotExist:
        raise Http404(
            _("%(name)s has no round %(number)s") % {"name": tournament.name, "number": number}
        ) from None


def posted_game(request: HttpRequest, **where: Any) -> Game:
    """The game a results form names; anything but one of `where`'s games (a stale form,
    a typed-in value that is no number, another table's game) is a 404 that says why
    (the site's page, config/errors.py) and changes nothing."""
    raw = request.POST.get("game", "")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Http404(_("the form names no game; reload the page and send it again"))
    try:
        return Game.objects.select_related("table").get(pk=int(raw), **where)
    except Game.DoesNotExist:
        raise Http404(_refused_game(where)) from None


def _refused_game(where: dict[str, Any]) -> str:
    """Why a posted game is not one of `where`'s: a player's link posts for her table,
    the results screen for its round."""
    if "table" in where:
        return _("this game is not at your table")
    round_ = where.get("table__round")
    if isinstance(round_, Round):
        return _("this game is not in round %(number)s") % {"number": round_.number}
    return _("this game is not on this page")


def season_or_404(club_slug: str, season_slug: str) -> Season:
    """The season at a club's address (its pages and its statistics), or a 404."""
    season = season_by_slugs(club_slug, season_slug)
    if season is None:
        raise Http404(_("there is no season at this address"))
    return season


def viewable_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, for anyone who may see it; an unpublished one is "not there" to
    everyone else (the same answer as for a tournament that does not exist)."""
    tournament = _tournament_or_404(slug)
    if not can_view(request.user, tournament):
        raise Http404(_("there is no tournament at this address"))
    return tournament


def form_problems(form: Any) -> str:
    return "; ".join(
        f"{k}: {' '.join(v)}" if k != "__all__" else " ".join(v) for k, v in form.errors.items()
    )


def confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "yes"
