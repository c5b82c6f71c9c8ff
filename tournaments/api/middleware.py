"""A short way out for pollers of a published tournament's standings.

A projector or a results board asks for the standings every few seconds with
If-None-Match; nearly every answer is 304, and when the standings change, every poller
fetches the same new body. For a published tournament both are answered here, before
sessions, authentication and DRF, from one query (the tournament's `standings_version`):
a 304, or the body already rendered for that version (in the cache). Anything else (an
unpublished tournament, a body not rendered yet) goes the whole way through
`StandingsView`, which renders and caches the body.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

from tournaments.models import Tournament
from tournaments.selectors.standings import standings_etag, standings_key, version_token

_PATH = re.compile(r"^/api/v1/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/standings/$")


class StandingsPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and not request.GET:
            match = _PATH.match(request.path_info)
            if match:
                answer = self._early(match["slug"], request.META.get("HTTP_IF_NONE_MATCH"))
                if answer is not None:
                    return answer
        return self.get_response(request)

    @staticmethod
    def _early(slug: str, seen: str | None) -> HttpResponse | None:
        from .views import standings_headers

        # Plain values, no ordering, no model: this is the whole cost of most polls.
        found = list(
            Tournament.objects.filter(slug=slug, published=True)
            .order_by()
            .values_list("pk", "standings_version", "created_at", "updated_at")[:1]
        )
        # Published only: anyone may read it, so no session or user is needed.
        if not found:
            return None
        pk, version, created_at, updated_at = found[0]
        token = version_token(pk, created_at, version)
        response: HttpResponse
        if seen == standings_etag(token):
            response = HttpResponseNotModified()
        else:
            body = cache.get(standings_key(token, "json"))
            if body is None:
                return None
            response = HttpResponse(body, content_type="application/json")
        return standings_headers(response, token, updated_at)
