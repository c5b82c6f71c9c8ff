"""The one JSON error shape of the site, for the API and the pages' own JSON answers
alike (docs/api.md):

    {"error": {"code": "conflict", "field": "version", "message": "…"}}

`code` is a stable word a client can switch on, `field` the input at fault (or null),
`message` a sentence for a person, in the request's language. Extra keys of a particular
answer (the results screen's row, a validation error's `fields`) sit beside `error`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import JsonResponse

from tournaments.core.errors import ConflictError, ServiceError

# The code of an answer that names no more precise one, by HTTP status.
CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "error",
    503: "unavailable",
}


def error_body(
    message: Any, *, status: int = 400, code: str | None = None, field: str | None = None
) -> dict[str, Any]:
    return {
        "error": {
            "code": code or CODES.get(status, "error"),
            "field": field,
            "message": str(message),
        }
    }


def error_response(
    message: Any,
    *,
    status: int = 400,
    code: str | None = None,
    field: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JsonResponse:
    body = {**(extra or {}), **error_body(message, status=status, code=code, field=field)}
    return JsonResponse(body, status=status)


def service_status(exc: ServiceError) -> int:
    """A refused service call: 409 when another write came first, else 400."""
    return 409 if isinstance(exc, ConflictError) else 400


def service_error_body(exc: ServiceError) -> dict[str, Any]:
    return error_body(exc.message, status=service_status(exc), field=exc.field)


def service_error_response(
    exc: ServiceError, *, extra: Mapping[str, Any] | None = None
) -> JsonResponse:
    return error_response(exc.message, status=service_status(exc), field=exc.field, extra=extra)
