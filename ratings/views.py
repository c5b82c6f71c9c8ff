from __future__ import annotations

from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_POST

from games import rulesets
from tournaments.core.actor import Actor
from tournaments.models import GAMES as GAME_CHOICES
from tournaments.models import Club

from .models import SYSTEM_CHOICES, PlayerRating, RatingJob
from .selectors import is_provisional, leaderboard
from .services import rating_job_queue

SYSTEMS = dict(SYSTEM_CHOICES)


def _system(request: HttpRequest, default: str = "glicko2") -> str:
    system = request.GET.get("system", default)
    if system not in SYSTEMS:
        raise Http404("unknown rating system")
    return system


GAMES = dict(GAME_CHOICES)


def _game(request: HttpRequest) -> str:
    game = request.GET.get("game", rulesets.DEFAULT)
    if game not in GAMES:
        raise Http404("unknown game")
    return game


def _int(request: HttpRequest, name: str, default: int) -> int:
    try:
        return max(0, int(request.GET.get(name, default)))
    except ValueError:
        return default


def _ranked(rows: Any, *, one_order: bool) -> list[tuple[PlayerRating, bool, int | None]]:
    """(rating, provisional, rank): as lichess does, a provisional rating (few games or a
    high deviation) is not ranked: it follows the ranked ones, unnumbered. ``one_order``
    ranks everyone by rating alone."""
    marked = [(r, is_provisional(r)) for r in rows]
    if one_order:
        return [(r, p, i) for i, (r, p) in enumerate(marked, start=1)]
    ranked = [r for r, p in marked if not p]
    return [(r, False, i) for i, r in enumerate(ranked, start=1)] + [
        (r, True, None) for r, p in marked if p
    ]


@require_GET
def leaderboard_view(request: HttpRequest, club_slug: str | None = None) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug) if club_slug else None
    system = _system(request, club.rating_system if club else "glicko2")
    active_days = _int(request, "active_days", 365)
    min_games = _int(request, "min_games", 0)
    game = _game(request)
    rows = leaderboard(
        system=system,
        game=game,
        club_id=club.pk if club else None,
        active_days=active_days or None,
        min_games=min_games,
    )
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "club": club,
            "system": system,
            "systems": SYSTEMS,
            "game": game,
            "games": GAMES,
            "rows": _ranked(rows[:500], one_order=request.GET.get("all") == "1"),
            "one_order": request.GET.get("all") == "1",
            "active_days": active_days,
            "min_games": min_games,
            "clubs": Club.objects.order_by("name"),
        },
    )


@require_POST
@staff_member_required
def job_ping(request: HttpRequest) -> HttpResponse:
    """Queue a no-op job: shows an organiser that a worker is answering."""
    job = rating_job_queue(kind=RatingJob.Kind.PING, by=Actor.director(request.user))
    return JsonResponse({"id": job.pk, "status": job.status}, status=202)


@require_GET
@staff_member_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(RatingJob, pk=pk)
    return JsonResponse(
        {"id": job.pk, "kind": job.kind, "status": job.status, "result": job.result}
    )
