"""When PostgreSQL is unreachable the site says "try again shortly" with a 503 and
Retry-After (JSON under /api/, a short page elsewhere) instead of an HTML 500."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

from tournaments.json_errors import error_response

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 30
# Raised by psycopg/Django when the server is down, restarting or refuses connections.
DATABASE_DOWN = (OperationalError, InterfaceError)


def unavailable(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = error_response(
            "The database is unavailable; try again shortly.", status=503
        )
    else:
        message = _("The site cannot reach its database just now. Try again in a minute.")
        response = HttpResponse(
            f"<!doctype html><title>503</title><h1>503</h1><p>{message}</p>",
            status=503,
            content_type="text/html; charset=utf-8",
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """Turns a view's database connection error into the 503 above."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN):
            log.error("database unavailable: %s", exception)
            return unavailable(request)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the same 503 for a database that went away outside a view (in a
    middleware reading the session, say); Django's page for anything else."""
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return unavailable(request)
    return django_server_error(request)
