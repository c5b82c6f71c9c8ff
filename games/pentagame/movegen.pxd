# C types for movegen.py when config/bin/engine-build compiles it with Cython (an
# augmenting .pxd: the .py file stays plain Python and the engine of record). Typed:
# the picking of the codes, and small numbers that are never shifted far (a C int
# shifted by a stop's number would overflow where a Python int grows: the masks and
# stops stay Python ints). tests/games/pentagame/test_compiled_engine.py compares the
# build with the .py file at every ply.
import cython


@cython.locals(
    half=cython.ulonglong,
    first=cython.int,
    t=cython.int,
    p=cython.int,
    n=cython.int,
    m=cython.int,
    seat=cython.int,
    five=cython.bint,
    codes=list,
    row=tuple,
    pos=list,
    areas=list,
    todo=list,
)
cpdef list legal_codes(game)
