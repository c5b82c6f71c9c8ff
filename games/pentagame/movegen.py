"""Legal move generation.

`legal_codes` is the fast form: one int per move, `to | from << 7 | piece << 14 |
(partner + 1) << 20` (partner only when several pieces on the target could be meant),
with to = 127 for taking out a piece that waits on its goal. `legal_moves` turns them into
canonical Move objects without the `:` and `z` parts.
"""

from __future__ import annotations

from typing import Final

from .board import BYTE_STOPS, bits
from .notation import PASS, Move
from .paths import NodeAreas
from .rules import BLACK_BASE, Position, State

FORCED: Final = 127


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
    occ = game.occ
    cnt = game.cnt
    multi = 0
    for s in pos:
        if s >= 0 and cnt[s] > 1:
            multi |= 1 << s
    piece_targets = NodeAreas(occ).targets
    five = r.five
    last = game.last[seat]
    codes: list[int] = []
    done_from = 0
    for p in mine:
        frm = pos[p]
        if frm < 0:
            continue
        if five:
            if (done_from >> frm) & 1:
                continue  # alike pieces on one stop move alike
            done_from |= 1 << frm
        mask = piece_targets(frm, occ)
        if last is not None and last[1] == frm and last[0] == (r.colour[p] if five else p):
            mask &= ~(1 << last[2])
        base = frm << 7 | p << 14
        shared = mask & multi
        if shared:
            mask ^= shared
            for t in bits(shared):
                for partner in _partners(game, t):
                    codes.append(base | t | (partner + 1) << 20)
        codes += [
            base | t
            for byte, table in zip(mask.to_bytes(13, "little"), BYTE_STOPS, strict=False)
            if byte
            for t in table[byte]
        ]
    return codes


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
