"""A short way out for pollers of a published tournament's standings.

A projector or a results board asks for the standings every few seconds with
If-None-Match; nearly every answer is 304, and when the standings change, every poller
fetches the same new body. For a published tournament both are answered here, before
sessions, authentication and DRF, from one query (the tournament's `standings_version`):
a 304, or the body already rendered for that version (this process's copy, else the
shared cache's: `tournaments.core.page_cache.cached_body`). Anything else (an
unpublished tournament, a body not rendered yet) goes the whole way through
`StandingsView`, which renders and caches the body.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date

from tournaments.core.page_cache import cached_body, compressed_answer
from tournaments.core.poll import etag_matches
from tournaments.models import Tournament
from tournaments.standings.selectors.standings import standings_etag, standings_key, version_token

_VERSION_SQL = (
    f"SELECT id, standings_version, created_at, updated_at FROM {Tournament._meta.db_table} "
    "WHERE slug = %s AND published LIMIT 1"
)


def _aware(value: datetime) -> datetime:
    # SQLite hands plain SQL naive datetimes (stored in UTC); PostgreSQL aware ones.
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


_PATH = re.compile(r"^/api/v1/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/standings/$")


class StandingsPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and not request.GET:
            match = _PATH.match(request.path_info)
            if match:
                answer = self._early(request, match["slug"])
                if answer is not None:
                    return answer
        return self.get_response(request)

    @staticmethod
    def _early(request: HttpRequest, slug: str) -> HttpResponse | None:
        seen = request.META.get("HTTP_IF_NONE_MATCH")
        # Most polls cost only this query: plain SQL, as the ORM's query building took
        # several times longer than the query itself (0.38 ms against 0.05 ms).
        with connection.cursor() as cursor:
            cursor.execute(_VERSION_SQL, [slug])
            found = cursor.fetchone()
        # Published only: anyone may read it, so no session or user is needed.
        if found is None:
            return None
        pk, version, created_at, updated_at = found[0], found[1], _aware(found[2]), _aware(found[3])
        token = version_token(pk, created_at, version)
        response: HttpResponse
        if etag_matches(seen, standings_etag(token)):
            response = HttpResponseNotModified()
        else:
            key = standings_key(token, "json")
            body = cached_body(key)
            if body is None:
                return None
            compressed = compressed_answer(request, key, body, content_type="application/json")
            if compressed is not None:
                # Weakened, as GZipMiddleware weakens a compressed answer's ETag.
                response = standings_headers(compressed, token, updated_at, published=True)
                response["ETag"] = "W/" + response["ETag"]
                return response
            response = HttpResponse(body, content_type="application/json")
        return standings_headers(response, token, updated_at, published=True)


def standings_headers(
    response: HttpResponse, token: str, updated_at: Any, *, published: bool
) -> HttpResponse:
    """Validators, and who may keep the answer: a published tournament's standings are the
    same for everyone, so any cache may keep them (revalidating each time); a hidden
    one's only the client that asked (its directors), never a shared cache."""
    response["ETag"] = standings_etag(token)
    response["Last-Modified"] = http_date(updated_at.timestamp())
    response["Cache-Control"] = "public, no-cache" if published else "private, no-cache"
    if not published:
        patch_vary_headers(response, ("Authorization", "Cookie"))
    return response
