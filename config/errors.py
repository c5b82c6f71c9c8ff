"""The site's own refusals: a 400, 403 or 404 is a page of the site (templates/400.html,
403.html, 404.html, on base.html) in the reader's language that says why, not Django's
bare page; a JSON client (the API, and the pages' own JSON calls such as the recording
board's) gets the site's one JSON error shape instead (tournaments/core/json_errors.py).

Why, in words for a person: the reason the view raised (`Http404(_("this game is not at
your table"))`), translated when it is a message of the catalogue; never the text Django
makes up for `get_object_or_404` ("No Game matches the given query.", which names a
model), nor the URL patterns tried, nor a SuspiciousOperation's details."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from tournaments.core.json_errors import error_response

log = logging.getLogger(__name__)

# What each refusal says when the view gave no reason fit for a person.
GENERIC = {
    400: gettext_lazy("The request could not be read."),
    403: gettext_lazy("You may not do that here."),
    404: gettext_lazy("There is no page at this address."),
}
# get_object_or_404's own message, and what a person reads instead, by model.
LOOKUP = re.compile(r"^No (\w+) matches the given query\.$")
BY_MODEL = {
    "Tournament": gettext_lazy("There is no such tournament."),
    "Round": gettext_lazy("There is no such round in this tournament."),
    "Table": gettext_lazy("There is no such table in this round."),
    "Game": gettext_lazy("There is no such game here."),
    "Seat": gettext_lazy("This report link is not valid: ask the organiser for yours."),
    "Entry": gettext_lazy("This player is not entered in this tournament."),
    "Team": gettext_lazy("There is no such team in this tournament."),
    "Player": gettext_lazy("There is no such player."),
    "Club": gettext_lazy("There is no such club."),
    "ResultSubmission": gettext_lazy("There is no such report."),
    "RatingJob": gettext_lazy("There is no such rating job."),
}
# Reasons some views raise in English (`Http404("no such game")`): marked here so the
# catalogue keeps them, and the page shows them in the reader's language.
RAISED_IN_ENGLISH = (
    gettext_noop("no such game"),
    gettext_noop("no such team"),
    gettext_noop("no such entry"),
    gettext_noop("no such round"),
    gettext_noop("not a team event"),
    gettext_noop("no viewer for this game"),
    gettext_noop("unknown rating system"),
    gettext_noop("unknown game"),
    gettext_noop("only the tournament's directors can record this game"),
    gettext_noop("unknown action"),
    gettext_noop("only club organisers can create tournaments"),
)


def wants_json(request: HttpRequest) -> bool:
    """The API, a request that sent JSON, or one that asks for JSON and not a page."""
    if request.path.startswith("/api/") or request.content_type == "application/json":
        return True
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def reason(exception: BaseException | None, status: int) -> str:
    """Why, for a person: the exception's own message when it was written for one,
    else the status's general sentence."""
    message: Any = exception.args[0] if exception is not None and exception.args else None
    if status == 400 and not isinstance(exception, BadRequest):
        # A SuspiciousOperation (a forged host, too many fields) says nothing useful
        # to the reader and something to an attacker.
        message = None
    if isinstance(message, Promise):
        return str(message)
    if isinstance(message, str) and message.strip():
        lookup = LOOKUP.match(message)
        if lookup:
            return str(BY_MODEL.get(lookup[1], GENERIC[status]))
        return _(message)
    return str(GENERIC[status])


def refusal(request: HttpRequest, status: int, why: str, code: str | None = None) -> HttpResponse:
    if wants_json(request):
        return error_response(why, status=status, code=code)
    context = {"status": status, "reason": why}
    try:
        body = loader.render_to_string(f"{status}.html", context, request)
    except Exception:  # a page that cannot render (a broken session, say) still refuses
        log.exception("the %s page could not be rendered", status)
        body = f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{escape(why)}</p>"
    return HttpResponse(body, status=status, content_type="text/html; charset=utf-8")


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return refusal(request, 400, reason(exception, 400))


def permission_denied(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return refusal(request, 403, reason(exception, 403))


def page_not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return refusal(request, 404, reason(exception, 404))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent without its token, or with a stale one (a page left
    open across a log-in elsewhere). Django's reason is for developers; the log has it."""
    log.warning("CSRF refused %s: %s", request.path, reason)
    return refusal(
        request,
        403,
        _(
            "This form has expired or did not come from this site. Reload the page and "
            "send it again."
        ),
        # A page's offline queue keeps such an entry and sends it again with the token
        # of the page opened next (agon/offline_queue.js): the entry is not refused.
        code="csrf",
    )
