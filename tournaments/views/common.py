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
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from tournaments.models import Game

from ..models import (
    Round,
    Tournament,
)
from ..permissions import can_direct, can_view
from ..services.errors import ServiceError

View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Load the tournament named by the URL and refuse anyone who may not run it."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        if not can_direct(request.user, tournament):
            raise PermissionDenied("only this tournament's directors may do that")
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


def round_or_404(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def posted_game(request: HttpRequest, **where: Any) -> Game:
    """The game a results form names; anything but one of `where`'s games (a stale form,
    a typed-in value that is no number) is a 404 and changes nothing."""
    raw = request.POST.get("game", "")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Http404("no such game")
    return get_object_or_404(Game.objects.select_related("table"), pk=int(raw), **where)


def viewable_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("no such tournament")
    return tournament


def form_problems(form: Any) -> str:
    return "; ".join(
        f"{k}: {' '.join(v)}" if k != "__all__" else " ".join(v) for k, v in form.errors.items()
    )


def confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "yes"
