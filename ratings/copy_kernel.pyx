# cython: language_level=3, boundscheck=False, wraparound=False
"""A period's history rows in PostgreSQL's binary COPY format, made in C.

The rating job's rows are made in Python by ``ratings/rate.py`` (``_game_rows``,
``_period_rows``) and ``ratings/history_rows.py`` (``row_maker``): that is the code of
record, and what runs without this build (the quick start without a compiler, SQLite).
Made one bytes object per row, they cost the job about a tenth of the rating maths'
time; this module writes the same bytes straight into one buffer per period, in the
common case where every system rated every game and every player (docs/benchmarks.md). ``config/bin/engine-build``
compiles it; ``tests/ratings/test_copy_kernel.py`` holds it to the Python rows to the
bit, on random rows of every column type.

A binary COPY row: the number of fields (int16), then each field's length (int32, -1
for NULL) and its value, big-endian.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.dict cimport PyDict_Next
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef extern from *:
    """
    #if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    #error "copy_kernel writes big-endian fields by swapping little-endian ones"
    #endif
    static inline uint64_t agon_be64(uint64_t x) { return __builtin_bswap64(x); }
    static inline uint32_t agon_be32(uint32_t x) { return __builtin_bswap32(x); }
    static inline uint16_t agon_be16(uint16_t x) { return __builtin_bswap16(x); }
    """
    uint64_t agon_be64(uint64_t x)
    uint32_t agon_be32(uint32_t x)
    uint16_t agon_be16(uint16_t x)

# The column types a kernel row may hold (history_rows.FIXED_SIZE), as codes.
cdef enum:
    INT8 = 0
    INT4 = 1
    FLOAT8 = 2
    BOOL = 3
    NULL_FIELD = 4

TYPE_CODES = {"int8": INT8, "int4": INT4, "float8": FLOAT8, "bool": BOOL}
# Bytes of a field with its length, by code.
cdef Py_ssize_t *SIZES = [12, 8, 12, 5, 4]


cdef inline char *_count(char *p, Py_ssize_t fields):
    cdef uint16_t value = agon_be16(<uint16_t>fields)
    memcpy(p, &value, 2)
    return p + 2


cdef inline char *_length(char *p, int32_t length):
    cdef uint32_t value = agon_be32(<uint32_t>length)
    memcpy(p, &value, 4)
    return p + 4


cdef inline char *_int8(char *p, object value) except NULL:
    cdef int64_t number = value  # OverflowError or TypeError, never a wrong value
    cdef uint64_t bits = agon_be64(<uint64_t>number)
    p = _length(p, 8)
    memcpy(p, &bits, 8)
    return p + 8


cdef inline char *_float8(char *p, object value) except NULL:
    cdef double number = value  # TypeError for None, as struct's "d"
    cdef uint64_t bits
    memcpy(&bits, &number, 8)
    bits = agon_be64(bits)
    p = _length(p, 8)
    memcpy(p, &bits, 8)
    return p + 8


cdef inline char *_int4(char *p, object value) except NULL:
    cdef int32_t number = value
    cdef uint32_t bits = agon_be32(<uint32_t>number)
    p = _length(p, 4)
    memcpy(p, &bits, 4)
    return p + 4


cdef inline char *_bool(char *p, object value) except NULL:
    # As struct's "B" from the value: a byte 0..255 (a bool is 0 or 1).
    cdef long number = value
    if number < 0 or number > 255:
        raise OverflowError(f"{value!r} does not fit a byte")
    p = _length(p, 1)
    p[0] = <char>number
    return p + 1


cdef inline char *_field(char *p, int code, object value) except NULL:
    if code == FLOAT8:
        return _float8(p, value)
    if code == INT8:
        return _int8(p, value)
    if code == INT4:
        return _int4(p, value)
    if code == BOOL:
        return _bool(p, value)
    return _length(p, -1)


def game_rows(list records, object period_id, dict ids, tuple systems):
    """(The bytes, the number) of every GameRating row of one period, as
    ``rate._game_rows`` makes them when every system rated every game: for each game (in
    order) and each of its players (in the order of the first system's ``after``), the
    game's record, the period, the player's id and every system's (before, after).
    ``systems`` holds each system's ``GameChange``s, in the same games."""
    cdef Py_ssize_t count = len(systems[0]), width = len(systems), rows = 0
    cdef Py_ssize_t g, s, at, size
    cdef bytes out
    cdef char *p
    cdef char *end
    cdef PyObject *key
    cdef PyObject *value
    cdef list befores = [None] * width, afters = [None] * width
    for changes in systems:
        if len(changes) != count:
            raise ValueError("the systems rated different games")
    first = systems[0]
    for g in range(count):
        rows += len(first[g].after)
    size = rows * (2 + 3 * 12 + 2 * width * 12)
    out = PyBytes_FromStringAndSize(NULL, size)
    p = PyBytes_AS_STRING(out)
    end = p + size
    for g in range(count):
        change = first[g]
        index = change.index
        for s in range(width):
            other = systems[s][g]
            if other.index != index:
                raise ValueError("the systems rated different games")
            befores[s] = other.before
            afters[s] = other.after
        game = records[index]
        after = change.after
        at = 0
        while PyDict_Next(after, &at, &key, &value):
            if p + 2 + 3 * 12 + 2 * width * 12 > end:
                raise ValueError("a game's players changed while its rows were made")
            pid = <object>key
            p = _count(p, 3 + 2 * width)
            p = _int8(p, game)
            p = _int8(p, period_id)
            p = _int8(p, ids[pid])
            for s in range(width):
                p = _float8(p, (<dict>befores[s])[pid])
                p = _float8(p, (<dict>afters[s])[pid])
    if p != end:
        raise ValueError("a game's players changed while its rows were made")
    return out, rows


def period_rows(
    object period_id, list players, dict played, dict ids, list systems, list fields
):
    """(The bytes, the number) of every PeriodRating row of one period, as
    ``rate._period_rows`` makes them when every system rated every player: for each
    player, the period, her id, her games, every system's (rating before, rating after,
    deviation after), then ``fields``.
    ``systems`` holds per system (the states before, the default state, the states
    after, the deviation's attribute or None for a NULL column); ``fields`` the state
    columns after them as (system's position, attribute, column type)."""
    cdef Py_ssize_t width = len(systems), extra = len(fields), at, total
    cdef bytes out
    cdef char *p
    cdef char *end
    cdef list befores = [], defaults = [], afters = [], deviations = []
    cdef list owners = [], names = []
    cdef int codes[64]
    if extra > 64:
        raise ValueError("too many state columns")
    cdef Py_ssize_t size = 2 + 12 * 3  # count; period, player (int8); games (int4: 8)
    size -= 4
    for before, default, after, deviation in systems:
        befores.append(before)
        defaults.append(default)
        afters.append(after)
        deviations.append(deviation)
        size += 12 * 2 + (4 if deviation is None else 12)
    for at, (owner, name, kind) in enumerate(fields):
        if not 0 <= owner < width:  # indexes ``ended`` unchecked below
            raise ValueError(f"no system at {owner!r}")
        owners.append(owner)
        names.append(name)
        codes[at] = TYPE_CODES[kind]
        size += SIZES[codes[at]]
    total = size * len(players)
    out = PyBytes_FromStringAndSize(NULL, total)
    p = PyBytes_AS_STRING(out)
    end = p + total
    cdef list ended = [None] * width
    for pid in players:
        if p + size > end:
            raise ValueError("the players changed while their rows were made")
        p = _count(p, 3 + 3 * width + extra)
        p = _int8(p, period_id)
        p = _int8(p, ids[pid])
        p = _int4(p, played[pid])
        for at in range(width):
            state = (<dict>befores[at]).get(pid)
            if state is None:
                state = defaults[at]
            p = _float8(p, state.rating)
            state = (<dict>afters[at])[pid]
            ended[at] = state
            p = _float8(p, state.rating)
            deviation = deviations[at]
            if deviation is None:
                p = _length(p, -1)
            else:
                p = _float8(p, getattr(state, deviation))
        for at in range(extra):
            p = _field(p, codes[at], getattr(ended[<Py_ssize_t>owners[at]], names[at]))
    if p != end:
        raise ValueError("the players changed while their rows were made")
    return out, len(players)
