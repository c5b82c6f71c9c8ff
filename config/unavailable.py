"""When PostgreSQL is unreachable the site says "try again shortly" with a 503 and
Retry-After (JSON under /api/, a short page elsewhere) instead of an HTML 500.

A transaction that lost a deadlock or a serialization failure is no outage: the
server is there, another write simply came first. The result services run such a
write again (tournaments/core/retry.py); one that lost every time, or a write
without the retry, is answered 409 "try again" (code `conflict`, Retry-After 1),
never 503 (docs/operations.md, "Deadlocks and serialization failures")."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

from tournaments.core.json_errors import error_response
from tournaments.core.retry import lost_race

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


def race_lost(request: HttpRequest) -> HttpResponse:
    """A write PostgreSQL ended to let a concurrent one finish: nothing of it was
    saved (its transaction was rolled back) and sending it again will do."""
    message = _("Another change was being saved at the same moment; nothing was saved. Try again.")
    if request.path.startswith("/api/"):
        response: HttpResponse = error_response(message, status=409)
    else:
        response = HttpResponse(
            f"<!doctype html><title>409</title><h1>409</h1><p>{message}</p>",
            status=409,
            content_type="text/html; charset=utf-8",
        )
    response["Retry-After"] = "1"
    return response


def answer(request: HttpRequest, exception: BaseException | None) -> HttpResponse | None:
    """The answer to a database error, or None for any other exception."""
    if lost_race(exception):
        log.warning("write lost a race in the database: %s", str(exception).splitlines()[0])
        return race_lost(request)
    if isinstance(exception, DATABASE_DOWN):
        log.error("database unavailable: %s", exception)
        return unavailable(request)
    return None


class DatabaseUnavailableMiddleware:
    """Turns a view's database connection error into the 503 above (a lost race into
    the 409)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return answer(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the same 503 (or 409) for a database error outside a view (in a
    middleware reading the session, say); Django's page for anything else."""
    return answer(request, sys.exc_info()[1]) or django_server_error(request)
