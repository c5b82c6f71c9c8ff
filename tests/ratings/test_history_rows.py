"""The history rows the job encodes itself for binary COPY (``row_maker`` for the
common rows, ``row_encoder`` for any row) are stored exactly as psycopg's own
encoding of the same values is, to the bit; a None where a maker expects a value
fails rather than storing something else."""

from __future__ import annotations

import math
import struct

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.history_rows import COPY_SIGNATURE, COPY_TRAILER, row_encoder, row_maker

pytestmark = pytest.mark.django_db

TYPES = ("int8", "int4", "float8", "bool")
VALUES = {
    "int8": st.integers(-(2**63), 2**63 - 1),
    "int4": st.integers(-(2**31), 2**31 - 1),
    "float8": st.floats(allow_nan=False) | st.sampled_from([-0.0, math.inf, -math.inf]),
    "bool": st.booleans(),
}
SQL = {"int8": "bigint", "int4": "integer", "float8": "double precision", "bool": "boolean"}


@st.composite
def batches(draw):
    """Rows of columns of the four types; some columns always NULL (what ``nulls``
    names), and with ``holes`` NULLs anywhere else too."""
    types = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=8))
    nulls = draw(st.sets(st.integers(0, len(types) - 1)))
    holes = draw(st.booleans())
    rows = []
    for _ in range(draw(st.integers(1, 30))):
        row = []
        for at, name in enumerate(types):
            if at in nulls:
                row.append(None)
            elif holes:
                row.append(draw(st.none() | VALUES[name]))
            else:
                row.append(draw(VALUES[name]))
        rows.append(tuple(row))
    return types, sorted(nulls), holes, rows


def _bits(value):
    return struct.pack(">d", value) if isinstance(value, float) else value


def _stored(types, data=None, rows=None):
    """The rows as PostgreSQL stored them: from a whole binary COPY (``data``), or from
    ``rows`` encoded by psycopg."""
    columns = ", ".join(f"c{at} {SQL[name]}" for at, name in enumerate(types))
    names = ", ".join(f"c{at}" for at in range(len(types)))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"CREATE TEMPORARY TABLE copied (n serial, {columns})")
        with cursor.cursor.copy(f"COPY copied ({names}) FROM STDIN (FORMAT BINARY)") as copy:
            if data is not None:
                copy.write(data)
            else:
                copy.set_types(list(types))
                for row in rows:
                    copy.write_row(row)
        cursor.execute(f"SELECT {names} FROM copied ORDER BY n")
        stored = [tuple(map(_bits, row)) for row in cursor.fetchall()]
        cursor.execute("DROP TABLE copied")
    return stored


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches())
def test_the_rows_encoded_by_the_job_are_stored_as_psycopgs_to_the_bit(batch):
    types, nulls, holes, rows = batch
    expected = _stored(types, rows=rows)
    encode = row_encoder(types)
    assert _stored(types, COPY_SIGNATURE + b"".join(map(encode, rows)) + COPY_TRAILER) == expected
    make = row_maker(types, nulls)
    if holes and any(v is None for row in rows for at, v in enumerate(row) if at not in nulls):
        with pytest.raises(struct.error):
            [make(*row) for row in rows]
        return
    made = b"".join(make(*row) for row in rows)
    assert made == b"".join(map(encode, rows))
    assert _stored(types, COPY_SIGNATURE + made + COPY_TRAILER) == expected


def test_a_row_maker_refuses_types_it_cannot_lay_out():
    with pytest.raises(ValueError, match="text"):
        row_maker(["int8", "text"])
