"""Legal move generation.

`legal_codes` is the fast form: one int per move, `to | from << 7 | piece << 14 |
(partner + 1) << 20` (partner only when several pieces on the target could be meant),
with to = 127 for taking out a piece that waits on its goal. `legal_moves` turns them into
canonical Move objects without the `:` and `z` parts.

This file is also compiled by Cython (`config/bin/engine-build`, typed by movegen.pxd);
the package loads that build while it matches this file (compiled.py).
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from .board import BLACK_BASE, bits
from .notation import PASS, Move
from .paths import (
    ALL_LINES,
    FIRST_LINES,
    LINE_WALKS,
    M1,
    M2,
    M4,
    NODE_LINKS,
    NODE_STARTS,
    NODES_OF,
    SECOND_LINES,
    STARTS,
)
from .rules import Position, State

FORCED: Final = 127
NOT_BIT: Final = tuple(~(1 << s) for s in range(100))


def legal_codes(game: Position) -> list[int]:
    """Every legal move of the seat to move as an int code (empty: only `pass`)."""
    if game.finished:
        return []
    r = game.rules
    seat = game.seat
    pos = game.pos
    goal = r.goal
    mine = r.seat_pieces[seat]
    if game.on_goal:
        waiting = [p for p in mine if pos[p] == goal[p]]
        if waiting:
            return [FORCED | pos[p] << 7 | p << 14 for p in waiting]
    cnt = game.cnt
    # Pieces share a stop only on the start nodes (nothing else ever holds two things).
    multi = 0
    if max(cnt[:10]) > 1:
        for s in range(10):
            if cnt[s] > 1:
                multi |= 1 << s
    five = r.five
    last = game.last[seat]
    ko_piece = ko_from = ko_to = -1
    if last is not None:
        ko_piece, ko_from, ko_to = last
    # Every line walked from both ends at once: fwd from its first node, bwd from its
    # second, each up to and including the first occupied stop (a free line: bwd all of
    # it, fwd none; free lines are counted with the nodes they join).
    occ = game.occ
    x = occ & ALL_LINES
    d = x | (x >> 1) & M1
    d |= (d >> 2) & M2
    d |= (d >> 4) & M4  # per line: every stop up to its last occupied one
    busy = d & STARTS
    fwd = x ^ (x - busy)
    bwd = ALL_LINES ^ ((d >> 1) & M1)
    free_lines = STARTS ^ busy
    free = ~occ & 1023
    # Per free node: every stop a piece reaches from it, once worked out (0: not yet).
    areas = [0] * 10
    avail = free  # free nodes not in an area worked out yet
    node_links = NODE_LINKS
    node_starts = NODE_STARTS
    nodes_of = NODES_OF
    # The codes are picked from rows of ready-made codes (a piece's moves from its stop to
    # stops 0..99) by the binary digits of the piece's mask of targets, lowest stop first:
    # one pass per piece (one pass over the pieces' rows chained, their masks side by side
    # in one int, scanned every row to its end and cost 5 % more instructions).
    codes: list[int] = []
    rows = _ROWS
    flags = _FLAGS
    done_from = 0
    for p in mine:
        frm = pos[p]
        if frm < 0:
            continue
        if five:
            if (done_from >> frm) & 1:
                continue  # alike pieces on one stop move alike
            done_from |= 1 << frm
        if frm < 10:
            links, mask = NODE_LINKS[frm][free_lines & NODE_STARTS[frm]]
            bit = 1 << frm
            mask |= (fwd & FIRST_LINES[bit]) | (bwd & SECOND_LINES[bit])
            exits = links & free
        else:
            base, full, walks = LINE_WALKS[frm]
            mask, exits = walks[(occ >> base) & full]
            exits &= free
        # Through each free node it reaches, the piece reaches that node's whole area.
        if exits:
            for n in nodes_of[exits]:
                area = areas[n]
                if not area:
                    # The free nodes joined to n by free lines, and every stop they reach.
                    u = 1 << n
                    avail &= ~u
                    todo = [n]
                    while todo:
                        m = todo.pop()
                        links, near = node_links[m][free_lines & node_starts[m]]
                        area |= near
                        new = links & avail
                        if new:
                            u |= new
                            avail ^= new
                            todo += nodes_of[new]
                    area |= u | (fwd & FIRST_LINES[u]) | (bwd & SECOND_LINES[u])
                    for m in nodes_of[u]:
                        areas[m] = area
                mask |= area
            mask &= NOT_BIT[frm]  # only an area leads back to frm
        if frm == ko_from and ko_piece == (r.colour[p] if five else p):
            mask &= ~(1 << ko_to)
        shared = mask & multi if multi else 0
        if shared:
            # Several pieces on a target: a code per distinct partner, before the rest.
            mask ^= shared
            base = frm << 7 | p << 14
            codes += [
                base | t | (partner + 1) << 20
                for t in bits(shared)
                for partner in _partners(game, t)
            ]
        row = rows[p << 7 | frm] or _row(p, frm)
        if _COMPILED:
            # Compiled (movegen.pxd types half, first and t as C integers): a plain scan
            # of the mask's two 64-bit halves, no Python object per stop scanned.
            for first in (0, 64):
                half = (mask >> first) & 0xFFFFFFFFFFFFFFFF
                t = first
                while half:
                    if half & 1:
                        codes.append(row[t])
                    half >>= 1
                    t += 1
        else:
            codes += compress(row, bin(mask).encode().translate(flags)[:1:-1])
    return codes


# Whether this is the build of this file that config/bin/engine-build compiles (see
# compiled.py): the same code, but the picking above is fastest in a different form.
_COMPILED: Final = not __file__.endswith((".py", ".pyc"))


# bin() of a mask as bytes, lowest stop last: 1 per set bit, 0 per unset bit.
_FLAGS: Final = bytes.maketrans(b"01", b"\x00\x01")
# Per piece and stop (index piece << 7 | stop): the codes of its moves to stops 0..99,
# made on first use.
_ROWS: Final[list[tuple[int, ...] | None]] = [None] * (64 << 7)


def _row(p: int, frm: int) -> tuple[int, ...]:
    base = frm << 7 | p << 14
    row = tuple(range(base, base + 100))
    _ROWS[p << 7 | frm] = row
    return row


def _partners(game: Position, stop: int) -> list[int]:
    """One representative piece for each distinct choice of swap partner on a stop."""
    r = game.rules
    seen: set[tuple[int, int]] = set()
    out = []
    for q in game.pieces_on(stop):
        key = (r.owner[q], -1 if r.five else r.colour[q])
        if key not in seen:
            seen.add(key)
            out.append(q)
    return out


def code_to_move(game: Position, code: int) -> Move:
    """The canonical Move (without `:` and `z` parts) of a code from legal_codes."""
    r = game.rules
    seat = game.seat
    to = code & 127
    frm = (code >> 7) & 127
    p = (code >> 14) & 63
    partner = (code >> 20) - 1
    own_here = [q for q in game.pieces_on(frm) if r.owner[q] == seat]
    named = not r.five and len(own_here) > 1
    piece = r.colour[p] if named else None
    if to == FORCED:
        return Move("z", frm, -1, piece)
    thing = game.cell[to]
    if game.cnt[to] == 0:
        return Move("-", frm, to, piece)
    if game.cnt[to] == 1 and thing >= BLACK_BASE:
        return Move("x", frm, to, piece)
    if partner < 0:
        partner = thing
    here = game.pieces_on(to)
    if r.owner[partner] == seat:
        same = [q for q in here if r.owner[q] == seat]
        target = r.colour[partner] if not r.five and len(same) > 1 else None
        return Move("s", frm, to, piece, target)
    foreign = [q for q in here if r.owner[q] != seat]
    owners = {r.owner[q] for q in foreign}
    seat_no = r.owner[partner] + 1 if len(owners) > 1 else None
    theirs = [q for q in foreign if r.owner[q] == r.owner[partner]]
    target = r.colour[partner] if not r.five and len(theirs) > 1 else None
    return Move("s!", frm, to, piece, target, seat_no)


def legal_moves(state: State | Position) -> list[Move]:
    """Every legal move of the seat to move, canonical, without `:` and `z` parts.

    `pass` is listed only when nothing else is legal; a finished game has no moves.
    """
    game = state if isinstance(state, Position) else Position(state)
    if game.finished:
        return []
    codes = legal_codes(game)
    if not codes:
        return [PASS]
    return [code_to_move(game, c) for c in codes]
