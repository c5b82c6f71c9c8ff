"""JSON request bodies the API accepts: nested at most MAX_DEPTH deep and holding only
text that can be stored (a lone surrogate such as "\ud800" is valid JSON but not
UTF-8, and would fail deep inside a field, the database or a log line with a 500)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from tournaments.core.jsonbody import MAX_DEPTH, check_document


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels") from None
        try:
            check_document(data)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        return data
