"""History rows written in large batches inside the rating job's transaction.

On PostgreSQL a batch goes out with ``COPY … (FORMAT BINARY)`` from a background
thread, so the server parses and indexes one batch on the other core while the job
rates the next; batches share the job's connection (and so its transaction) and run
one at a time. Elsewhere (SQLite) a batch is a plain ``bulk_create``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from django.db import connection, models


class Writer:
    """At most one COPY under way on the job's connection; ``wait`` before using the
    connection for anything else. An error in the thread is raised by ``wait``."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        #: Seconds the COPYs took, and seconds the job waited for them (benchmark).
        self.busy = 0.0
        self.waited = 0.0

    def copy(self, statement: str, types: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        self.wait()
        connection.ensure_connection()
        raw = connection.connection  # psycopg's own connection: COPY is its API

        def run() -> None:
            started = time.perf_counter()
            try:
                with raw.cursor() as cursor, cursor.copy(statement) as copy:
                    copy.set_types(types)
                    write = copy.write_row
                    for row in rows:
                        write(row)
            except BaseException as error:  # re-raised in the job's thread by wait()
                self._error = error
            self.busy += time.perf_counter() - started

        self._thread = threading.Thread(target=run, name="history-copy", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            started = time.perf_counter()
            self._thread.join()
            self._thread = None
            self.waited += time.perf_counter() - started
        if self._error is not None:
            error, self._error = self._error, None
            raise error


class Rows:
    """History rows of one model, as tuples of ``columns`` (attribute names), written
    out by ``flush``."""

    def __init__(
        self,
        model: type[models.Model],
        columns: Sequence[str],
        writer: Writer,
    ) -> None:
        self.model = model
        self.columns = tuple(columns)
        self.writer = writer
        self.rows: list[tuple[Any, ...]] = []
        self.append = self.rows.append

    def flush(self) -> None:
        if not self.rows:
            return
        # A copy: callers hold on to ``append`` of this very list.
        rows = self.rows[:]
        self.rows.clear()
        if connection.vendor == "postgresql":
            self._copy(rows)
        else:
            model = self.model
            columns = self.columns
            model.objects.bulk_create(  # type: ignore[attr-defined]
                [model(**dict(zip(columns, row, strict=True))) for row in rows]
            )

    def _copy(self, rows: list[tuple[Any, ...]]) -> None:
        meta = self.model._meta
        fields = {field.attname: field for field in meta.concrete_fields}
        names = ", ".join(f'"{fields[name].column}"' for name in self.columns)
        types = [_pg_type(fields[name]) for name in self.columns]
        statement = f'COPY "{meta.db_table}" ({names}) FROM STDIN (FORMAT BINARY)'
        self.writer.copy(statement, types, rows)


def _pg_type(field: models.Field[Any, Any]) -> str:
    """The type a binary COPY sends for this column (psycopg dumps dicts as jsonb)."""
    declared = field.db_type(connection) or ""
    if declared.startswith("varchar"):
        return "text"
    return {"bigint": "int8", "integer": "int4", "double precision": "float8"}.get(
        declared, declared
    )
