"""A short way out for pollers of a published tournament's standings.

A projector or a results board asks for the standings every few seconds with
If-None-Match; nearly every answer is 304, and when the standings change, every poller
fetches the same new body. When the database has not moved since this process last
loaded the tournament (see `standings_stamps`), both are answered here, before sessions,
authentication and DRF: a 304, or the body this process has already rendered for the
current standings — one query that reads no table. Anything else (an unpublished
tournament, a changed database, standings not rendered yet) goes the whole way through
`StandingsView`, which fills the per-process caches this reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from tournaments.selectors.standings import database_snapshot, standings_stamps

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
        from .views import StandingsView

        known = StandingsView._loaded.get(slug)
        # Published: anyone may read it, so no session or user is needed.
        if known is None or not known[1].published:
            return None
        snapshot = database_snapshot()
        if snapshot is None or known[0] != snapshot:
            return None
        content = standings_stamps(known[1], snapshot=snapshot)[1]
        return StandingsView.answer(known[1], content, seen, render=False)
