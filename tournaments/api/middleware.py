"""A short way out for pollers of a published tournament's standings.

A projector or a results board asks for the standings every few seconds with
If-None-Match; nearly every answer is 304. When the database has not moved since this
process last loaded the tournament (see `standings_stamps`), the 304 is answered here,
before sessions, authentication and DRF: one query that reads no table. Anything else —
an unpublished tournament, a changed database, no ETag — goes the whole way through
`StandingsView`, which fills the per-process cache this reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import quote_etag

from tournaments.selectors.standings import database_snapshot, standings_stamps

_PATH = re.compile(r"^/api/v1/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/standings/$")


class StandingsPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        seen = request.META.get("HTTP_IF_NONE_MATCH")
        if seen and request.method == "GET":
            match = _PATH.match(request.path_info)
            if match:
                answer = self._not_modified(match["slug"], seen)
                if answer is not None:
                    return answer
        return self.get_response(request)

    @staticmethod
    def _not_modified(slug: str, seen: str) -> HttpResponse | None:
        from .views import StandingsView

        known = StandingsView._loaded.get(slug)
        if known is None or not known[1].published:
            return None
        snapshot = database_snapshot()
        if snapshot is None or known[0] != snapshot:
            return None
        etag = quote_etag(standings_stamps(known[1], snapshot=snapshot)[1])
        if seen != etag:
            return None
        response = HttpResponseNotModified()
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response
