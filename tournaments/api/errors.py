"""Every API error is JSON that names the field and the problem."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.services.errors import ConflictError, ServiceError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"detail": exc.message}
        if exc.field:
            body["field"] = exc.field
            body[exc.field] = [exc.message]
        code = status.HTTP_409_CONFLICT if isinstance(exc, ConflictError) else 400
        return Response(body, status=code)
    return drf_exception_handler(exc, context)
