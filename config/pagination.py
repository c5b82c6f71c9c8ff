"""Paginated lists answer at most MAX_LIMIT rows a request: `?limit=1000000` on the
games list rendered megabytes for seconds and a few such requests stalled every web
worker."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT
