# cython: annotation_typing=False
"""Replaying recorded moves in place: the loop behind `Position.play`.

The plain plies of `Position.apply`'s fast path run here with the position's counters in
local variables (no method call, no attribute writes per ply); every other move goes
through `Position._apply` with the counters written back first. This loop is the
measured hot path of replaying records (bench/engine.py), hence the duplication of
`apply`'s fast path.

This file is also compiled by Cython (`config/bin/engine-build`, typed by playloop.pxd;
the first line keeps Cython from reading the annotations as C types, the .pxd gives
them); the package loads that build while it matches this file (compiled.py), and
tests/games/pentagame/test_compiled_engine.py holds the two to the same states and
reasons at every ply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .board import BLACK_BASE, EMPTY, GREY_BASE, OUT
from .errors import IllegalMove, PentagameError
from .notation import Move, parse_move_cached
from .paths import BIT, SHORT_WAYS, search_path, short_ways_to

if TYPE_CHECKING:  # rules.py imports this module: the position is a type only here
    from .rules import Position


def play(game: Position, moves: Sequence[str]) -> tuple[int, str] | None:
    """`Position.play`: apply recorded moves (their texts) in turn, exactly as `apply`
    would one by one; stop at the first that cannot be read or is illegal and return its
    index and reason (None: every move applied)."""
    r = game.rules
    owner = r.owner
    goal = r.goal
    colour = r.colour
    seat_pieces = r.seat_pieces
    five = r.five
    # The seat after each seat (0 after the last: a round is complete).
    next_seat = (*range(1, r.players), 0)
    pos = game.pos
    cnt = game.cnt
    cell = game.cell
    last = game.last
    black_at = game.black
    grey_at = game.grey
    parse = parse_move_cached
    move_type = Move
    bit = BIT
    short_ways = SHORT_WAYS
    # Typed as C ints in the build (playloop.pxd): the module's constants are Python ints.
    empty = EMPTY
    black_base = BLACK_BASE
    grey_base = GREY_BASE
    occ = game.occ
    seat = game.seat
    first_ply = game.ply
    on_goal = game.on_goal
    finished = game.finished
    decided = game._decided()
    n = len(moves)
    for i in range(n):
        move = parse(moves[i])
        if move.__class__ is move_type and not on_goal and not finished:
            kind, frm, to, piece, target, seat_no, black, grey, _ = move
            mover = cell[frm]
            # A cell names a thing only when it stands alone on its stop (cnt 1), so cnt
            # is read only where it is written; frm == to fails the reachability test.
            if (
                0 <= mover < black_base
                and owner[mover] == seat
                and piece is None
                and target is None
                and grey is None
                and to != goal[mover]
            ):
                key = (colour[mover] if five else mover, frm, to)
                thing = cell[to]
                if last[seat] == key:
                    pass
                elif thing == empty:
                    if kind == "-" and black is None and _reaches(short_ways, frm, to, occ):
                        pos[mover] = to
                        cnt[frm] = 0
                        cell[frm] = empty
                        cnt[to] = 1
                        cell[to] = mover
                        occ ^= bit[frm] ^ bit[to]
                        last[seat] = key
                        seat = next_seat[seat]
                        if not seat:
                            finished = decided
                        continue
                elif 0 <= thing < black_base:
                    other = owner[thing]
                    if (
                        black is None
                        and (
                            (kind == "s" and other == seat)
                            or (
                                kind == "s!"
                                and other != seat
                                and (seat_no is None or seat_no == other + 1)
                            )
                        )
                        and _reaches(short_ways, frm, to, occ)
                    ):
                        pos[mover] = to
                        pos[thing] = frm
                        cell[frm] = thing
                        cell[to] = mover
                        g = goal[thing]
                        if g == frm:
                            on_goal += 1
                        elif g == to:
                            on_goal -= 1
                        last[seat] = key
                        seat = next_seat[seat]
                        if not seat:
                            finished = decided
                        continue
                elif kind == "x" and thing >= black_base:
                    if thing >= grey_base:
                        ok = black is None
                    else:
                        ok = black is not None and (black == frm or not cnt[black])
                    if ok and _reaches(short_ways, frm, to, occ):
                        pos[mover] = to
                        cnt[frm] = 0
                        cell[frm] = empty
                        cell[to] = mover
                        occ ^= bit[frm]
                        if black is None:
                            grey_at[thing - grey_base] = OUT
                        else:
                            black_at[thing - black_base] = black
                            cnt[black] = 1
                            cell[black] = thing
                            occ |= bit[black]
                        last[seat] = key
                        seat = next_seat[seat]
                        if not seat:
                            finished = decided
                        continue
            elif (
                kind == "-"
                and cnt[frm] > 1
                and not cnt[to]
                and piece is None
                and target is None
                and black is None
                and grey is None
            ):
                # A piece leaves a start node that others share (the first plies): the
                # seat's only piece there, or the first of its alike pieces.
                own = [q for q in seat_pieces[seat] if pos[q] == frm]
                if own and (five or len(own) == 1):
                    mover = own[0]
                    key = (colour[mover] if five else mover, frm, to)
                    if (
                        to != goal[mover]
                        and last[seat] != key
                        and _reaches(short_ways, frm, to, occ)
                    ):
                        pos[mover] = to
                        c = cnt[frm] - 1
                        cnt[frm] = c
                        if c == 1:
                            cell[frm] = pos.index(frm)
                        cnt[to] = 1
                        cell[to] = mover
                        occ |= bit[to]
                        last[seat] = key
                        seat = next_seat[seat]
                        if not seat:
                            finished = decided
                        continue
        # Anything else: the full path, with every check and its reason. Every move
        # counts one ply, so the ply is written back only here and at the end.
        game.occ = occ
        game.seat = seat
        game.ply = first_ply + i
        game.on_goal = on_goal
        game.finished = finished
        try:
            if not isinstance(move, Move):
                raise IllegalMove(move)
            game._apply(move)
        except PentagameError as exc:
            return i, exc.reason
        occ = game.occ
        seat = game.seat
        on_goal = game.on_goal
        finished = game.finished
        decided = game._decided()
    game.occ = occ
    game.seat = seat
    game.ply = first_ply + n
    game.on_goal = on_goal
    game.finished = finished
    return None


def _reaches(
    short_ways: list[tuple[tuple[int, ...], ...] | None], frm: int, to: int, occ: int
) -> bool:
    """paths.reaches, here so that the build calls it in C: most moves take a way
    through at most 3 nodes, one test of a precomputed mask each; the search decides
    the rest."""
    for way in (short_ways[to] or short_ways_to(to))[frm]:
        if not occ & way:
            return True
    return search_path(frm, to, occ)


# Whether this is the build of this file that config/bin/engine-build compiles (see
# compiled.py), for the tests and the benchmark to tell which one runs.
_COMPILED: Final = not __file__.endswith((".py", ".pyc"))
