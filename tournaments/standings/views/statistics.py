"""The statistics pages of a club, a season and an event (docs/statistics.md): charts
and tables of what the recorded games say, and the same numbers as JSON
(``?format=json``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.core.web import season_or_404, viewable_tournament
from tournaments.standings.selectors.statistics import (
    ScopeStatistics,
    club_by_slug,
    club_statistics,
    event_statistics,
    season_statistics,
)

# The page lists this many players' words; the JSON has every one.
WORDS_SHOWN = 30


@require_GET
def club_statistics_view(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_by_slug(club_slug)
    if club is None:
        raise Http404(_("there is no club at this address"))
    statistics = club_statistics(club=club, user=request.user)
    return _answer(request, statistics, {"club": club, "name": club.name})


@require_GET
def season_statistics_view(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    season = season_or_404(club_slug, season_slug)
    statistics = season_statistics(season=season, user=request.user)
    return _answer(
        request, statistics, {"season": season, "club": season.club, "name": season.name}
    )


@require_GET
def tournament_statistics_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = viewable_tournament(request, slug)
    statistics = event_statistics(tournament=tournament)
    return _answer(request, statistics, {"tournament": tournament, "name": tournament.name})


def _answer(
    request: HttpRequest, statistics: ScopeStatistics, context: dict[str, Any]
) -> HttpResponse:
    if request.GET.get("format") == "json":
        return JsonResponse(statistics.as_json(), json_dumps_params={"ensure_ascii": False})
    words = statistics.words
    return render(
        request,
        "tournaments/statistics.html",
        {
            **context,
            "statistics": statistics,
            "stats": statistics.stats,
            "words": words[:WORDS_SHOWN],
            "more_words": max(0, len(words) - WORDS_SHOWN),
        },
    )
