"""OpenAPI: every operation documents the errors it can answer with, as JSON."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable word for the kind of error.")
    field = serializers.CharField(
        allow_null=True, help_text="The input at fault, or null when none is."
    )
    message = serializers.CharField(help_text="What went wrong, for a person.")

    class Meta:
        ref_name = "ErrorDetail"


class ErrorSerializer(serializers.Serializer):
    """An error, in the one shape of every JSON error of the site (docs/api.md).
    Validation errors also map each field at fault to its problems in `problems`."""

    error = ErrorDetailSerializer()
    problems = serializers.DictField(
        required=False, help_text="Validation errors: each field at fault, its problems."
    )

    class Meta:
        ref_name = "Error"


ERRORS = {
    "400": "Bad input: the body names the field at fault and its problem.",
    "401": "The token or session is missing or invalid.",
    "403": "Authenticated, but not allowed to do this.",
    "404": "No such object, or not visible to you.",
    "409": "The request conflicts with the current state (an edit in between, a round "
    "not closed yet...).",
    "415": "The body's content type is not JSON, a form or multipart.",
    "429": "Too many requests; retry after the `Retry-After` seconds.",
}


class ApiSchema(AutoSchema):
    """The project's AutoSchema: adds the documented error responses."""

    def error_codes(self) -> list[str]:
        codes = ["400"]
        if self.view.get_authenticators():
            codes.append("401")
        if "{" in self.path:
            codes.append("404")
        if self.method not in SAFE_METHODS:
            codes += ["403", "409", "415", "429"]
        # A view may add codes, e.g. 404 for a query parameter that names an object.
        codes += list(getattr(self.view, "error_codes", ()))
        return sorted(set(codes))

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        error = self._get_response_for_code(ErrorSerializer, "400", direction=direction)
        for code in self.error_codes():
            existing = responses.get(code)
            if existing is None:
                responses[code] = {**error, "description": ERRORS[code]}
            elif "content" not in existing:
                existing["content"] = error["content"]
        return responses
