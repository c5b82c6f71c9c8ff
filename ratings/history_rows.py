"""History rows written in large batches inside the rating job's transaction.

On PostgreSQL a batch goes out with ``COPY … (FORMAT BINARY)`` from a background
thread, so the server parses and indexes one batch on the other core while the job
rates the next; batches share the job's connection (and so its transaction) and run
one at a time, in the order they were handed over. Each row is encoded by the job as
it is made, by one ``struct`` call (``Rows.maker``): the thread only sends bytes.
Encoded by psycopg value by value in the thread, the rows cost as much CPU, and the
thread's share of the interpreter slowed the rating beside it (docs/benchmarks.md).
Elsewhere (SQLite) the rows are tuples and a batch is a plain ``bulk_create``.
"""

from __future__ import annotations

import queue
import struct
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection, models

from ratings.compiled import kernel

#: Batches handed to the COPY thread and not written yet, at most (bounds the memory a
#: job holds when the server falls behind).
QUEUED_BATCHES = 3

#: Binary COPY's framing: the signature, flags and header extension; the trailer.
COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\0" + bytes(8)
COPY_TRAILER = b"\xff\xff"
#: A NULL field: a length of -1 and no data.
COPY_NULL = b"\xff\xff\xff\xff"
#: The column types of the history rows, as binary COPY sends them: ``struct`` code
#: and size in bytes. A bool as a byte from an int (``?`` would take None as false).
FIXED_SIZE = {"int8": ("q", 8), "int4": ("i", 4), "float8": ("d", 8), "bool": ("B", 1)}


class Writer:
    """COPYs on the job's connection, one at a time in a thread of their own; ``wait``
    before using the connection for anything else. An error in the thread is raised
    by ``wait`` (the batches after it are dropped)."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._queue: queue.Queue[tuple[str, bytes] | None] = queue.Queue(maxsize=QUEUED_BATCHES)
        self._error: BaseException | None = None
        #: Seconds the COPYs took, the thread's CPU seconds in this process, and seconds
        #: the job waited for them (benchmark).
        self.busy = 0.0
        self.cpu = 0.0
        self.waited = 0.0

    def copy(self, statement: str, data: bytes) -> None:
        """Run ``statement`` (a binary COPY FROM STDIN) with ``data``, the whole of it
        (signature, rows and trailer), in the thread."""
        if self._thread is None:
            connection.ensure_connection()
            self._thread = threading.Thread(
                target=self._run,
                args=(connection.connection,),  # psycopg's own connection: COPY is its API
                name="history-copy",
                daemon=True,
            )
            self._thread.start()
        started = time.perf_counter()
        self._queue.put((statement, data))  # blocks while the queue is full
        self.waited += time.perf_counter() - started

    def _run(self, raw: Any) -> None:
        while (batch := self._queue.get()) is not None:
            if self._error is not None:
                continue  # a batch failed: the transaction is lost, skip the rest
            statement, data = batch
            started = time.perf_counter()
            cpu = time.thread_time()
            try:
                with raw.cursor() as cursor, cursor.copy(statement) as copy:
                    copy.write(data)
            except BaseException as error:  # re-raised in the job's thread by wait()
                self._error = error
            self.busy += time.perf_counter() - started
            self.cpu += time.thread_time() - cpu

    def wait(self) -> None:
        if self._thread is not None:
            started = time.perf_counter()
            self._queue.put(None)
            self._thread.join()
            self._thread = None
            self.waited += time.perf_counter() - started
        if self._error is not None:
            error, self._error = self._error, None
            raise error


class Rows:
    """History rows of one model, values of ``columns`` (attribute names), kept as
    ``maker`` and ``encoder`` make them and written out by ``flush``."""

    def __init__(
        self,
        model: type[models.Model],
        columns: Sequence[str],
        writer: Writer,
    ) -> None:
        self.model = model
        self.columns = tuple(columns)
        self.writer = writer
        self.rows: list[Any] = []
        #: Rows held, made one by one or in blocks.
        self.count = 0
        self.binary = connection.vendor == "postgresql"
        self.statement, self.types = (
            copy_statement(model, self.columns) if self.binary else ("", [])
        )

    def maker(self, nulls: Collection[int] = ()) -> Callable[..., Any]:
        """A function of one value per column giving the row: its bytes in binary COPY
        on PostgreSQL (``row_maker``; the columns at ``nulls`` are always NULL and
        their values ignored), the tuple of its values elsewhere."""
        if not self.binary:
            return _tuple_maker(len(self.columns))
        return row_maker(self.types, nulls)

    def encoder(self) -> Callable[[Sequence[Any]], Any]:
        """A function from any row's values (NULLs anywhere) to the row, as ``maker``
        gives it: slower, for the rows of games a system could not rate."""
        if not self.binary:
            return tuple
        return row_encoder(self.types)

    def add(self, rows: Iterable[Any]) -> None:
        """Rows as ``maker`` and ``encoder`` make them."""
        held = len(self.rows)
        self.rows.extend(rows)
        self.count += len(self.rows) - held

    def add_block(self, block: tuple[bytes, int]) -> None:
        """(The bytes, the number) of rows made at once, in binary COPY (``kernel``)."""
        data, count = block
        self.rows.append(data)
        self.count += count

    def flush(self) -> None:
        if not self.rows:
            return
        rows, self.rows = self.rows, []
        self.count = 0
        if self.binary:
            self.writer.copy(self.statement, COPY_SIGNATURE + b"".join(rows) + COPY_TRAILER)
            return
        model, columns = self.model, self.columns
        model.objects.bulk_create(  # type: ignore[attr-defined]
            [model(**dict(zip(columns, row, strict=True))) for row in rows]
        )


def _tuple_maker(width: int) -> Callable[..., tuple[Any, ...]]:
    names = ", ".join(f"v{at}" for at in range(width))
    made: Callable[..., tuple[Any, ...]] = eval(  # noqa: S307 -- built from numbers only
        f"lambda {names}: ({names},)", {}
    )
    return made


def row_maker(types: Sequence[str], nulls: Collection[int] = ()) -> Callable[..., bytes]:
    """A function of one value per column giving the row's bytes in binary COPY: the
    field count, then each field's length and value, packed by one ``struct`` call
    with the lengths written into it (generated from ``types``, which must all be in
    ``FIXED_SIZE``). The columns at ``nulls`` are always NULL and their values ignored;
    a None elsewhere fails (``struct.error``), never becomes a wrong value."""
    unknown = [name for name in types if name not in FIXED_SIZE]
    if unknown:
        raise ValueError(f"no fixed-size encoding for {unknown}")
    layout = ">h"
    fields = []
    for at, name in enumerate(types):
        code, size = FIXED_SIZE[name]
        if at in nulls:
            layout += "i"
            fields.append("-1")
        else:
            layout += "i" + code
            fields.append(f"{size}, v{at}")
    names = ", ".join(f"v{at}" for at in range(len(types)))
    made: Callable[..., bytes] = eval(  # noqa: S307 -- built from numbers only
        f"lambda {names}: pack({len(types)}, {', '.join(fields)})",
        {"pack": struct.Struct(layout).pack},
    )
    return made


def row_encoder(types: Sequence[str]) -> Callable[[Sequence[Any]], bytes]:
    """A function from any row's values (a None is NULL) to its bytes in binary COPY,
    field by field."""
    fields = []
    for name in types:
        code, size = FIXED_SIZE[name]
        fields.append((struct.Struct(">i" + code).pack, size))
    count = struct.pack(">h", len(types))

    def encode(values: Sequence[Any]) -> bytes:
        parts = [count]
        for value, (pack, size) in zip(values, fields, strict=True):
            parts.append(COPY_NULL if value is None else pack(size, value))
        return b"".join(parts)

    return encode


def row_kernel() -> Any:
    """The compiled rows (ratings/copy_kernel.pyx) for the binary COPY on PostgreSQL
    when their build is there (ratings/compiled.py), else None: rows are made in
    Python."""
    if connection.vendor != "postgresql":
        return None
    return kernel()


#: jsonb's binary input: a version byte, then the JSON text.
JSONB_PREFIX = "\x01"


def json_encoder() -> Any:
    """What a JSON value's text becomes in the rows of ``Rows`` on this database: the
    binary jsonb payload on PostgreSQL (COPY sends it as is), the text elsewhere."""
    if connection.vendor == "postgresql":
        return lambda text: (JSONB_PREFIX + text).encode()
    return str


def copy_statement(
    model: type[models.Model], columns: Sequence[str], table: str | None = None
) -> tuple[str, list[str]]:
    """The binary ``COPY`` of these columns (attribute names) of the model's table (or
    of ``table``, a copy of its columns), and the types its rows are sent as."""
    fields = {field.attname: field for field in model._meta.concrete_fields}
    names = ", ".join(f'"{fields[name].column}"' for name in columns)
    types = [_pg_type(fields[name]) for name in columns]
    target = table or model._meta.db_table
    return f'COPY "{target}" ({names}) FROM STDIN (FORMAT BINARY)', types


def _pg_type(field: models.Field[Any, Any]) -> str:
    """The type a binary COPY sends for this column. JSON goes out as bytes: the rows
    hold jsonb's binary form already (``json_encoder``)."""
    declared = field.db_type(connection) or ""
    if declared.startswith("varchar"):
        return "text"
    return {
        "bigint": "int8",
        "integer": "int4",
        "double precision": "float8",
        "jsonb": "bytea",
        "boolean": "bool",
        "timestamp with time zone": "timestamptz",
    }.get(declared, declared)


def truncate(*tables: type[models.Model]) -> None:
    """Empty these tables at once, inside the job's transaction: ``TRUNCATE`` on
    PostgreSQL (other sessions' reads of them wait until the job commits), a plain
    delete elsewhere."""
    if connection.vendor != "postgresql":
        for model in tables:
            model.objects.all()._raw_delete(model.objects.db)  # type: ignore[attr-defined]
        return
    names = ", ".join(f'"{model._meta.db_table}"' for model in tables)
    with connection.cursor() as cursor:
        # TRUNCATE waits for an autovacuum of these tables (a previous job's rows) until
        # the deadlock check cancels it, after deadlock_timeout (1 s by default): paid
        # by every recomputation soon after another. A superuser (only she may) lets
        # the check run sooner, for this statement only; nothing else changes.
        cursor.execute(
            "SELECT current_setting('deadlock_timeout'), "
            "set_config('deadlock_timeout', '20ms', true) "
            "WHERE current_setting('is_superuser') = 'on'"
        )
        lowered = cursor.fetchone()
        cursor.execute(f"TRUNCATE {names}")
        if lowered is not None:
            cursor.execute("SELECT set_config('deadlock_timeout', %s, true)", [lowered[0]])


@contextmanager
def indexes_built_after(*tables: type[models.Model]) -> Iterator[None]:
    """Rows written into these (just emptied) tables inside the block are indexed
    once at its end, by sorting, instead of row by row: on PostgreSQL their indexes and
    unique constraints, all but the primary key, are dropped here and created again
    from their own definitions (names included) when the block ends. Index upkeep was
    two thirds of the server's work for a full recomputation's history
    (docs/benchmarks.md). All of it inside the job's transaction: other sessions never
    see the tables without them, and a failure rolls the drop back with the rest (the
    block is not finished then). Elsewhere nothing is dropped."""
    if connection.vendor != "postgresql":
        yield
        return
    names = [model._meta.db_table for model in tables]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE conrelid = ANY(%s::regclass[]) AND contype = 'u' "
            "ORDER BY conrelid, conname",
            [names],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
            "WHERE indrelid = ANY(%s::regclass[]) AND NOT indisprimary AND NOT EXISTS "
            "(SELECT 1 FROM pg_constraint WHERE conindid = indexrelid) "
            "ORDER BY indrelid, indexrelid",
            [names],
        )
        indexes = cursor.fetchall()
        for table, name, _ in constraints:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {name}")
    yield
    with connection.cursor() as cursor:
        for table, name, definition in constraints:
            cursor.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for _, definition in indexes:
            cursor.execute(definition)


def upsert(
    model: type[models.Model],
    columns: Sequence[str],
    conflict: str,
    rows: list[tuple[Any, ...]],
) -> None:
    """Insert rows (values of ``columns``, JSON as ``json_encoder`` gives it) in their
    order, updating the row already there when the unique constraint ``conflict``
    clashes: on PostgreSQL by binary COPY into a temporary table and one
    ``INSERT … ON CONFLICT``."""
    assert connection.vendor == "postgresql"
    meta = model._meta
    fields = {field.attname: field for field in meta.concrete_fields}
    scratch = f"_new_{meta.db_table}"
    names = [f'"{fields[name].column}"' for name in columns]
    declared = ", ".join(
        f"{name} {fields[column].db_type(connection)}"
        for name, column in zip(names, columns, strict=True)
    )
    statement, types = copy_statement(model, columns, scratch)
    with connection.cursor() as cursor:
        cursor.execute(
            f'CREATE TEMPORARY TABLE "{scratch}" (_seq serial, {declared}) ON COMMIT DROP'
        )
        raw = cursor.cursor  # psycopg's own cursor: COPY is its API
        with raw.copy(statement) as copy:
            copy.set_types(types)
            for row in rows:
                copy.write_row(row)
        unique = {
            f'"{meta.get_field(name).column}"'
            for constraint in meta.constraints
            if constraint.name == conflict
            for name in getattr(constraint, "fields", ())
        }
        changes = ", ".join(f"{name} = EXCLUDED.{name}" for name in names if name not in unique)
        listed = ", ".join(names)
        cursor.execute(
            f'INSERT INTO "{meta.db_table}" ({listed}) SELECT {listed} FROM "{scratch}" '
            f"ORDER BY _seq ON CONFLICT ON CONSTRAINT {conflict} DO UPDATE SET {changes}"
        )
        cursor.execute(f'DROP TABLE "{scratch}"')
