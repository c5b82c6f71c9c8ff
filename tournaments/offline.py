"""The server's half of the venue without signal (docs/offline.md): what a page's
offline queue sends with each item, read here once for every endpoint that takes one.

- ``Idempotency-Key``: `idempotent` wraps a view (a plain view, or an API view's
  handler) so that the first request with a key runs and its answer is stored, and any
  later one gets that answer again with ``Idempotency-Replayed: true``, writing nothing
  (services/idempotency.py).
- ``X-Agon-Queued-At``: the moment the item was typed; `queued_at` reads it, and the
  services keep what no longer fits for the organiser instead of refusing it
  (services/result_path.py, `game_result_sync`).
- `outcome_response`: the JSON a queue reads for what became of its item.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.json_errors import error_response, service_error_response
from tournaments.models import Seat
from tournaments.services.actor import Actor
from tournaments.services.errors import ServiceError
from tournaments.services.idempotency import (
    FIELD,
    KeyMismatch,
    Stored,
    check_key,
    idempotency_claim,
    idempotency_store,
)
from tournaments.services.result_path import Outcome

QUEUED_AT = "X-Agon-Queued-At"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# What a replay repeats besides the body: the content type, a redirect's target, htmx's.
_KEPT_HEADERS = ("content-type", "location")


def queued_at(request: HttpRequest | Request) -> datetime | None:
    """When a queued item was typed (``X-Agon-Queued-At``, ISO 8601); None for a request
    sent as it was made. A time that cannot be read is the request's fault (400)."""
    raw = request.headers.get(QUEUED_AT, "").strip()
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise ServiceError(
            _("%(header)s must be an ISO 8601 time") % {"header": QUEUED_AT}, field=QUEUED_AT
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def wants_json(request: HttpRequest) -> bool:
    """A form endpoint asked for JSON (a page's queue): answered with the outcome or the
    one error shape instead of the page's HTML."""
    return "application/json" in request.headers.get("Accept", "")


def outcome_body(outcome: Outcome) -> dict[str, str]:
    return {"outcome": outcome.kind, "detail": outcome.detail}


def outcome_response(outcome: Outcome) -> JsonResponse:
    """202 for an item kept for the organiser (a dispute, a ply conflict), else 200."""
    return JsonResponse(outcome_body(outcome), status=202 if outcome.kept else 200)


def _actor(request: HttpRequest | Request, kwargs: dict[str, Any]) -> Actor | None:
    """Whose key it is: the seat of the link's token, else the signed-in user (only the
    scope of the key: the view checks what they may do)."""
    token = kwargs.get("token")
    if token:
        seat = Seat.objects.filter(report_token=token).select_related("table").first()
        return Actor.player(seat) if seat is not None else None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Actor.director(user)
    return None


def _replay(stored: Stored) -> HttpResponse:
    response = HttpResponse(stored.body, status=stored.status)
    for name, value in stored.headers.items():
        response[name] = value
    response["Idempotency-Replayed"] = "true"
    return response


def _kept_headers(response: HttpResponseBase) -> dict[str, str]:
    return {
        name: value
        for name, value in response.items()
        if name.lower() in _KEPT_HEADERS or name.lower().startswith("hx-")
    }


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``view`` (a view function, or an API view's handler method) at most once per
    ``Idempotency-Key``. Without the header, or for a read, the view runs as always."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> HttpResponseBase:
        api = isinstance(args[0], APIView)
        request = args[1] if api else args[0]
        key = request.headers.get(FIELD, "")
        if request.method not in WRITES or not key:
            return view(*args, **kwargs)
        try:
            check_key(key)
        except ServiceError as exc:
            return service_error_response(exc)
        by = _actor(request, kwargs)
        if by is None:
            return view(*args, **kwargs)  # nobody to scope the key to: the view refuses
        with transaction.atomic():
            try:
                stored = idempotency_claim(key=key, path=request.path, by=by)
            except KeyMismatch as exc:
                return error_response(exc.message, status=422, code="invalid", field=exc.field)
            except ServiceError as exc:
                return service_error_response(exc)
            if stored is not None:
                return _replay(stored)
            response = _run(view, api, args, kwargs)
            if response.status_code >= 500 or getattr(response, "streaming", False):
                transaction.set_rollback(True)  # the key is free for the retry
                return response
            try:
                with transaction.atomic():
                    idempotency_store(
                        key=key,
                        status=response.status_code,
                        headers=_kept_headers(response),
                        body=response.content,
                        by=by,
                    )
            except DatabaseError:
                # The view left the transaction unusable (a failed statement outside a
                # savepoint): nothing of it is kept, the sender may retry.
                transaction.set_rollback(True)
        return response

    return wrapper


def _run(
    view: Callable[..., Any], api: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> HttpResponseBase:
    """The view's final answer, rendered: an API handler's refusals become their JSON
    answers here (as the framework would make them after the handler)."""
    if not api:
        response = view(*args, **kwargs)
    else:
        api_view, request = args[0], args[1]
        try:
            response = view(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the framework's own handler decides
            response = api_view.handle_exception(exc)
        response = api_view.finalize_response(request, response, *args[2:], **kwargs)
    render = getattr(response, "render", None)
    if callable(render) and not getattr(response, "is_rendered", True):
        response = render()
    return response
