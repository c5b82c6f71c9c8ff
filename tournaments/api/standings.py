"""The API of standings: a tournament's standings, with ETag and a cache keyed on their version."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.api.common import TournamentScoped
from tournaments.core.page_cache import cached_body, store_body
from tournaments.core.poll import etag_matches
from tournaments.models import (
    Tournament,
)
from tournaments.standings.middleware import standings_headers
from tournaments.standings.selectors.standings import (
    standings_etag,
    standings_key,
    standings_token,
    tournament_standings,
)


class StandingsView(TournamentScoped, APIView):
    """Standings with tie-breaks. Cheap to poll: answers 304 to a matching ETag (made
    from the tournament's `standings_version`); a published tournament's polls are
    mostly answered before this view, by `StandingsPollMiddleware`."""

    @extend_schema(responses={200: OpenApiResponse(description="standings rows with tie-breaks")})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = self.tournament()
        return standings_response(tournament, request.headers.get("If-None-Match"))


def standings_response(tournament: Tournament, seen: str | None) -> HttpResponse:
    """304 for a matching ETag, else the standings body, rendered once per standings
    version (kept in the cache, so every process and poller shares it)."""
    token = standings_token(tournament)
    response: HttpResponse
    if etag_matches(seen, standings_etag(token)):
        response = HttpResponseNotModified()
    else:
        key = standings_key(token, "json")
        body = cached_body(key)
        if body is None:
            standings = tournament_standings(tournament=tournament)
            body = JSONRenderer().render(standings.as_json())
            store_body(key, body)
        response = HttpResponse(body, content_type="application/json")
    return standings_headers(response, token, tournament.updated_at, published=tournament.published)
