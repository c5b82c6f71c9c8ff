"""Server-side query counting for the benchmarks, never loaded in production: the
settings module below adds it in front of the site's middleware, and bench scripts start
gunicorn with DJANGO_SETTINGS_MODULE=bench.querycount.

Every answer then carries X-Query-Count (the SQL statements the request ran on the
default database, sessions and authentication included) and X-Query-Ms (their time)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from config.settings import *  # noqa: F403
from config.settings import MIDDLEWARE as _SITE_MIDDLEWARE

MIDDLEWARE = ["bench.querycount.QueryCountMiddleware", *_SITE_MIDDLEWARE]


class QueryCountMiddleware:
    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        from django.db import connection

        count = 0
        spent = 0.0

        def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            nonlocal count, spent
            count += 1
            start = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                spent += time.perf_counter() - start

        with connection.execute_wrapper(counted):
            response = self.get_response(request)
        response["X-Query-Count"] = str(count)
        response["X-Query-Ms"] = f"{spent * 1000:.1f}"
        return response
