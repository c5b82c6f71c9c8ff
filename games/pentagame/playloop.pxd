# C types for playloop.py when config/bin/engine-build compiles it with Cython (an
# augmenting .pxd: the .py file stays plain Python and the engine of record). Typed: the
# loop's counters, seats, stops and the things on them (small numbers, never shifted:
# the occupancy mask stays a Python int, as it has 100 bits).
# tests/games/pentagame/test_compiled_engine.py compares the build with the .py file at
# every ply.
import cython


@cython.locals(
    i=Py_ssize_t,
    n=Py_ssize_t,
    first_ply=Py_ssize_t,
    seat=cython.int,
    frm=cython.int,
    to=cython.int,
    mover=cython.int,
    thing=cython.int,
    other=cython.int,
    g=cython.int,
    c=cython.int,
    on_goal=cython.int,
    empty=cython.int,
    black_base=cython.int,
    grey_base=cython.int,
    five=cython.bint,
    finished=cython.bint,
    decided=cython.bint,
    ok=cython.bint,
    kind=str,
    owner=tuple,
    goal=tuple,
    colour=tuple,
    seat_pieces=tuple,
    next_seat=tuple,
    bit=tuple,
    pos=list,
    cnt=list,
    cell=list,
    last=list,
    black_at=list,
    grey_at=list,
    short_ways=list,
)
cpdef play(game, moves)


# Called in C by the loop: paths.reaches without a Python call per ply.
cdef bint _reaches(list short_ways, int frm, int to, object occ) except -1
