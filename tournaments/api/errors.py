"""Every API error is JSON that names the field and the problem."""

from __future__ import annotations

from typing import Any

from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.services.errors import ConflictError, ServiceError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"detail": exc.message}
        if exc.field:
            body["field"] = exc.field
            body[exc.field] = [exc.message]
        warnings = getattr(exc, "warnings", None)
        if warnings:
            # The pairing editor's warnings that need an override_reason, one text each.
            body["warnings"] = list(warnings)
        code = status.HTTP_409_CONFLICT if isinstance(exc, ConflictError) else 400
        return Response(body, status=code)
    if isinstance(exc, ProtectedError | RestrictedError):
        # Deleting a club that still has tournaments, players...: refuse, say what.
        kinds = sorted({obj._meta.verbose_name_plural for obj in exc.args[1]})
        detail = f"still in use: delete or move its {', '.join(map(str, kinds))} first"
        return Response({"detail": detail}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DataError | OverflowError):
        # A number too large for the database (OverflowError on SQLite, DataError on
        # PostgreSQL) or a text too long: the input is at fault, not the server.
        return Response(
            {"detail": "a value is out of range or too long"}, status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, IntegrityError):
        # A database constraint refused the write (the serializers check the same rules
        # first; this is the last guard): a conflict with existing data, never a 500.
        return Response(
            {"detail": f"the change conflicts with the data: {exc}".splitlines()[0]},
            status=status.HTTP_409_CONFLICT,
        )
    response = drf_exception_handler(exc, context)
    if (
        response is not None
        and isinstance(exc, exceptions.ValidationError)
        and isinstance(response.data, list)
    ):
        # A bare list of messages names no field: say it concerns the input as a whole.
        response.data = {
            "detail": " ".join(map(str, response.data)),
            "non_field_errors": response.data,
        }
    return response
