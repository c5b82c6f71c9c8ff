"""Every API error is JSON in the site's one error shape (tournaments/core/json_errors.py):
what went wrong, its code, and the field at fault."""

from __future__ import annotations

from typing import Any

from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import error_body, service_error_body, service_status


def _first_problem(data: Any, path: str = "") -> tuple[str | None, str]:
    """The first field at fault in DRF's validation errors (a mapping of fields to
    lists of messages, nested for nested input) and its first message."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in {"non_field_errors", "detail"}:
                return _first_problem(value, path)
            return _first_problem(value, f"{path}.{key}" if path else str(key))
    if isinstance(data, list) and data:
        return _first_problem(data[0], path)
    return path or None, str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body = service_error_body(exc)
        warnings = getattr(exc, "warnings", None)
        if warnings:
            # The pairing editor's warnings that need an override_reason, one text each.
            body["warnings"] = list(warnings)
        return Response(body, status=service_status(exc))
    if isinstance(exc, ProtectedError | RestrictedError):
        # Deleting a club that still has tournaments, players...: refuse, say what.
        kinds = sorted({obj._meta.verbose_name_plural for obj in exc.args[1]})
        detail = f"still in use: delete or move its {', '.join(map(str, kinds))} first"
        return Response(error_body(detail, status=409, code="in_use"), status=409)
    if isinstance(exc, DataError | OverflowError):
        # A number too large for the database (OverflowError on SQLite, DataError on
        # PostgreSQL) or a text too long: the input is at fault, not the server.
        return Response(
            error_body("a value is out of range or too long", code="out_of_range"),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, IntegrityError):
        # A database constraint refused the write (the serializers check the same rules
        # first; this is the last guard): a conflict with existing data, never a 500.
        message = f"the change conflicts with the data: {exc}".splitlines()[0]
        return Response(error_body(message, status=409), status=status.HTTP_409_CONFLICT)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_problem(response.data)
        body = error_body(message, status=response.status_code, field=field)
        if isinstance(response.data, dict):
            body["problems"] = response.data  # every field at fault, each with its problems
        response.data = body
    else:
        # DRF's own errors (and Django's Http404 and PermissionDenied, which it turned
        # into them): {"detail": ErrorDetail(message, code)}.
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        code = getattr(detail, "code", None)
        response.data = error_body(detail, status=response.status_code, code=code)
    return response
