"""A plain reference implementation of the Pentagame rules, for the engine benchmark
and the agreement tests (not used by the site).

Written for clarity, not speed, and independently of `games/pentagame/rules.py`: it
shares only the board's adjacency lists and the move notation (`Move`, `parse_move`).

- The state is a plain object; every move copies it and changes the copy.
- Which stops a piece reaches is a fresh breadth-first search over the adjacency lists
  for every move, with the occupied stops worked out afresh from the state.
- Legal moves are listed as comparable keys: (mover, from, to, partner), where mover is
  the moving piece's colour (alike pieces of the five-player game share it), to is -1
  for taking out a piece that waits on its goal, and partner is (seat, colour) of the
  piece swapped with (colour -1 in the five-player game), or None.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from games.pentagame.board import ADJ
from games.pentagame.notation import Move, parse_move

OUT = -1
MoveKey = tuple[int, int, int, tuple[int, int] | None]


class RefIllegal(Exception):
    """The reference rejects a move."""


@dataclass
class RefState:
    players: int
    teams: bool
    five: bool
    owner: list[int]
    colour: list[int]
    goal: list[int]
    pieces: list[int]
    black: list[int]
    grey: list[int]
    seat: int
    ply: int
    last: list[tuple[int, int, int] | None]
    out: list[list[int]]
    finished: bool

    def copy(self) -> RefState:
        return RefState(
            self.players,
            self.teams,
            self.five,
            self.owner,
            self.colour,
            self.goal,
            list(self.pieces),
            list(self.black),
            list(self.grey),
            self.seat,
            self.ply,
            list(self.last),
            [list(o) for o in self.out],
            self.finished,
        )


def ref_start(players: int, variant: str) -> RefState:
    flags = {f.strip().lower() for f in variant.replace(",", "+").split("+") if f.strip()}
    teams = "teams" in flags
    inside_out = "inside-out" in flags
    five = players == 5
    owner: list[int] = []
    colour: list[int] = []
    for seat in range(players):
        for k in range(4 if five else 5):
            owner.append(seat)
            colour.append(seat if five else k)
    corners = [0, 1, 2, 3, 4]
    crossings = [5, 6, 7, 8, 9]
    home, away = (crossings, corners) if inside_out else (corners, crossings)
    return RefState(
        players=players,
        teams=teams,
        five=five,
        owner=owner,
        colour=colour,
        goal=[away[c] for c in colour],
        pieces=[home[c] for c in colour],
        black=list(away),
        grey=[OUT] * 5,
        seat=0,
        ply=0,
        last=[None] * players,
        out=[[] for _ in range(players)],
        finished=False,
    )


def occupied(st: RefState) -> set[int]:
    stops = {s for s in st.pieces if s >= 0}
    stops.update(st.black)
    stops.update(s for s in st.grey if s >= 0)
    return stops


def pieces_on(st: RefState, stop: int) -> list[int]:
    return [p for p, s in enumerate(st.pieces) if s == stop]


def reachable(st: RefState, frm: int) -> set[int]:
    """Every stop a piece on frm may end on: a breadth-first search through empty stops;
    the first occupied stop on each way is reached but not passed."""
    full = occupied(st)
    seen = {frm}
    found: set[int] = set()
    queue = deque([frm])
    while queue:
        s = queue.popleft()
        for t in ADJ[s]:
            if t in seen:
                continue
            seen.add(t)
            found.add(t)
            if t not in full:
                queue.append(t)
    found.discard(frm)
    return found


def waiting(st: RefState) -> list[int]:
    return [p for p, s in enumerate(st.pieces) if st.owner[p] == st.seat and s == st.goal[p]]


def ref_legal(st: RefState) -> set[MoveKey]:
    """Every legal move of the seat to move, as keys (empty: only `pass`)."""
    if st.finished:
        return set()
    moves: set[MoveKey] = set()
    wait = waiting(st)
    if wait:
        for p in wait:
            moves.add((st.colour[p], st.pieces[p], -1, None))
        return moves
    last = st.last[st.seat]
    for p, frm in enumerate(st.pieces):
        if st.owner[p] != st.seat or frm < 0:
            continue
        for to in reachable(st, frm):
            if last == (st.colour[p] if st.five else p, frm, to):
                continue
            here = pieces_on(st, to)
            if not here:
                moves.add((st.colour[p], frm, to, None))
            for q in here:
                moves.add((st.colour[p], frm, to, (st.owner[q], -1 if st.five else st.colour[q])))
    return moves


def _end_turn(st: RefState) -> None:
    st.ply += 1
    st.seat += 1
    if st.seat == st.players:
        st.seat = 0
        if st.teams:
            st.finished = any(len(st.out[s]) + len(st.out[s + 2]) >= 5 for s in (0, 1))
        elif any(len(o) >= 3 for o in st.out):
            st.finished = True


def _place_grey(st: RefState, move: Move, taken_grey: bool) -> None:
    """The grey block after a piece went out (the new state already without it)."""
    if move.grey is None:
        raise RefIllegal("a piece went out: a grey block must be placed")
    if OUT in st.grey:
        if move.grey_from is not None:
            raise RefIllegal("the reserve is not empty")
        i = st.grey.index(OUT)
    else:
        if move.grey_from is None or move.grey_from not in st.grey:
            raise RefIllegal("no grey block to move")
        if move.grey_from == move.grey:
            raise RefIllegal("the grey block must move")
        i = st.grey.index(move.grey_from)
    if move.grey in occupied(st):
        raise RefIllegal("the grey block's stop is not empty")
    st.grey[i] = move.grey


def ref_apply(st: RefState, move: Move) -> RefState:
    """The state after a move (a new object); raises RefIllegal."""
    if st.finished:
        raise RefIllegal("the game is over")
    new = st.copy()
    seat = st.seat
    if move.kind == "pass":
        new.last[seat] = None
        _end_turn(new)
        return new
    wait = waiting(st)
    if move.kind == "z":
        cands = [p for p in wait if st.pieces[p] == move.frm]
        if move.piece is not None:
            cands = [p for p in cands if st.colour[p] == move.piece]
        if not cands:
            raise RefIllegal("no piece waits there")
        p = cands[0]
        new.pieces[p] = OUT
        new.out[seat].append(st.colour[p])
        _place_grey(new, move, False)
        new.last[seat] = None
        _end_turn(new)
        return new
    if wait:
        raise RefIllegal("a piece waits on its goal")
    frm, to = move.frm, move.to
    own = [p for p in pieces_on(st, frm) if st.owner[p] == seat]
    if move.piece is not None:
        own = [p for p in own if st.colour[p] == move.piece]
    elif len({st.colour[p] for p in own}) > 1:
        raise RefIllegal("several pieces: name one")
    if not own:
        raise RefIllegal("no such piece")
    mover = own[0]
    if to not in reachable(st, frm):
        raise RefIllegal("no free path")
    here = pieces_on(st, to)
    black_here = [i for i, s in enumerate(st.black) if s == to]
    grey_here = [i for i, s in enumerate(st.grey) if s == to]
    partner = -1
    if here:
        if move.kind == "s":
            cands = [q for q in here if st.owner[q] == seat]
        elif move.kind == "s!":
            cands = [q for q in here if st.owner[q] != seat]
            if move.seat is not None:
                cands = [q for q in cands if st.owner[q] == move.seat - 1]
            elif len({st.owner[q] for q in cands}) > 1:
                raise RefIllegal("name the seat")
        else:
            raise RefIllegal("a piece stands there: swap")
        if move.target is not None:
            cands = [q for q in cands if st.colour[q] == move.target]
        elif len({st.colour[q] for q in cands}) > 1:
            raise RefIllegal("name the piece")
        if not cands:
            raise RefIllegal("no such piece to swap with")
        partner = cands[0]
    elif black_here or grey_here:
        if move.kind != "x" or move.target is not None:
            raise RefIllegal("a block stands there: x")
        if grey_here and move.black is not None:
            raise RefIllegal("a grey block is not re-placed")
        if black_here and move.black is None:
            raise RefIllegal("a black block must be re-placed")
    elif move.kind != "-" or move.target is not None:
        raise RefIllegal("the stop is empty: -")
    if move.black is not None and move.kind != "x":
        raise RefIllegal("no black block taken")
    key = (st.colour[mover] if st.five else mover, frm, to)
    if st.last[seat] == key:
        raise RefIllegal("Ko")
    goes_out = to == st.goal[mover]
    if not goes_out and move.grey is not None:
        raise RefIllegal("no piece goes out")
    # The new position.
    if partner >= 0:
        new.pieces[partner] = frm
    new.pieces[mover] = OUT if goes_out else to
    for i in grey_here:
        new.grey[i] = OUT
    for i in black_here:
        new.black[i] = -2  # lifted, re-placed below
        assert move.black is not None
        if move.black in occupied(new):
            raise RefIllegal("the black block's stop is not empty")
        new.black[i] = move.black
    if goes_out:
        new.out[seat].append(st.colour[mover])
        if move.black is not None and move.grey == move.black:
            raise RefIllegal("the grey block's stop holds the black block")
        _place_grey(new, move, bool(grey_here))
    new.last[seat] = key
    _end_turn(new)
    return new


def ref_winners(st: RefState) -> list[int]:
    if not st.finished:
        return []
    outs = [len(o) for o in st.out]
    if st.teams:
        team = [outs[0] + outs[2], outs[1] + outs[3]]
        best = max(team)
        return [s + 1 for s in range(4) if team[s % 2] == best and best >= 5]
    best = max(outs)
    return [s + 1 for s, n in enumerate(outs) if n == best and n >= 3]


def ref_replay(record: dict[str, Any]) -> tuple[int, RefState, list[int]]:
    """Replay a record: (plies applied, final state, winners); raises RefIllegal."""
    st = ref_start(record["players"], record["variant"])
    plies = 0
    for text in record["moves"]:
        st = ref_apply(st, parse_move(text))
        plies += 1
    return plies, st, ref_winners(st)


# --- agreement with the engine ------------------------------------------------------


def engine_keys(game: Any) -> list[MoveKey]:
    """The engine's legal moves (`legal_codes` of a `Position`) as reference keys, in the
    engine's order (duplicates kept, so that a caller can see them)."""
    from games.pentagame.movegen import FORCED, legal_codes

    r = game.rules
    keys: list[MoveKey] = []
    for code in legal_codes(game):
        to = code & 127
        frm = (code >> 7) & 127
        p = (code >> 14) & 63
        partner = (code >> 20) - 1
        if to == FORCED:
            keys.append((r.colour[p], frm, -1, None))
            continue
        if partner < 0:
            here = game.pieces_on(to)
            partner = here[0] if here else -1
        pk = None if partner < 0 else (r.owner[partner], -1 if r.five else r.colour[partner])
        keys.append((r.colour[p], frm, to, pk))
    return keys


def state_tuple(st: RefState) -> tuple[Any, ...]:
    """What the engine's `State` says, from the reference's state."""
    return (
        tuple(st.pieces),
        tuple(st.black),
        tuple(st.grey),
        None if st.finished else st.seat + 1,
        st.ply,
        tuple(st.last),
        tuple(tuple(o) for o in st.out),
        st.finished,
    )


def engine_state_tuple(state: Any) -> tuple[Any, ...]:
    return (
        state.pieces,
        state.black,
        state.grey,
        state.to_move,
        state.ply,
        state.last,
        state.out,
        state.finished,
    )


def check_agreement(record: dict[str, Any]) -> int:
    """Replay a record with the engine and the reference side by side; at every ply the
    legal-move sets, the whole state and the winners must agree. Returns the plies."""
    from games.pentagame.result import result
    from games.pentagame.rules import Position

    game = Position.start(record["players"], record["variant"])
    st = ref_start(record["players"], record["variant"])
    for i, text in enumerate(record["moves"]):
        keys = engine_keys(game)
        ref = ref_legal(st)
        assert len(keys) == len(set(keys)), f"ply {i + 1}: the engine lists a move twice"
        assert set(keys) == ref, (
            f"ply {i + 1}: legal moves differ: engine only {sorted(set(keys) - ref)[:5]}, "
            f"reference only {sorted(ref - set(keys))[:5]}"
        )
        move = parse_move(text)
        game.apply(move)
        st = ref_apply(st, move)
        state = game.state()
        assert engine_state_tuple(state) == state_tuple(st), f"ply {i + 1}: states differ"
        assert list(result(state).winners) == ref_winners(st), f"ply {i + 1}: winners differ"
    return len(record["moves"])
