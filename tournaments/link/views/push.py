"""The door a venue pushes an event through (docs/venue.md): a token of the club in
`Authorization: Bearer`, a JSON body (gzip allowed, bounded before and after
inflating), the answer the digests the site now holds, or the one error shape."""

from __future__ import annotations

import gzip
import zlib
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import error_response, service_error_response
from tournaments.core.jsonbody import loads
from tournaments.core.permissions import can_organise
from tournaments.core.throttles import write_throttled
from tournaments.link.selectors import venue_token_for
from tournaments.link.services import OutOfStepError, TakenOverError, event_push_apply

# A 60-table evening's five rounds are a few MB of JSON; a push carries at most a few
# rounds. Both bounds hold before anything is parsed.
MAX_BODY = 8 * 1024 * 1024
MAX_INFLATED = 64 * 1024 * 1024


def _body(request: HttpRequest) -> bytes:
    raw = request.body
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            raw = inflate.decompress(raw, MAX_INFLATED)
        except zlib.error:
            raise ValueError(_("the body is not gzip")) from None
        if inflate.unconsumed_tail:
            raise ValueError(_("the body is too large"))
    return raw


@csrf_exempt  # a token in a header, never a cookie: nothing for a forged form to ride on
@require_POST
@write_throttled
def push(request: HttpRequest) -> HttpResponse:
    auth = request.headers.get("Authorization", "")
    token = (
        venue_token_for(auth.removeprefix("Bearer ").strip())
        if auth.startswith("Bearer ")
        else None
    )
    if token is None:
        return error_response(_("a valid venue token is needed"), status=401)
    if int(request.headers.get("Content-Length") or 0) > MAX_BODY:
        return error_response(_("the push is too large"), status=413)
    try:
        payload: Any = loads(_body(request))
    except (ValueError, EOFError, gzip.BadGzipFile) as exc:
        return error_response(str(exc), status=400, field="body")
    # The push writes with the rights of the organiser who made the token: one who no
    # longer organises the club takes the token's rights with them.
    maker = token.created_by
    if maker is None or not can_organise(maker, token.club):
        return error_response(
            _("the organiser who made this token no longer organises the club; make a new one"),
            status=403,
        )
    try:
        answer = event_push_apply(token=token, payload=payload, by=Actor.director(maker))
    except OutOfStepError as exc:
        return error_response(
            exc.message,
            status=409,
            code="out_of_step",
            field=exc.field,
            extra={"digests": exc.digests},
        )
    except TakenOverError as exc:
        return error_response(exc.message, status=409, code="taken_over", field=exc.field)
    except PermissionDenied as exc:
        return error_response(str(exc), status=403)
    except ServiceError as exc:
        return service_error_response(exc)
    return JsonResponse(answer)
