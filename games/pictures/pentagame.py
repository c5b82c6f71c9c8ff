"""Pentagame's board as plain data: the geometry of the pentagram (book section 15,
"Solving the board") for drawing it, and a position with its legal moves for the
recording board (tournaments/results/static/agon/board.js), every rule asked of the engine. Pure:
no Django; tournaments/results/views/board.py only sends it out."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from games import pentagame
from games.pentagame.board import (
    BLACK_BASE,
    CHORDS,
    COLOURS,
    CORNERS,
    CROSSINGS,
    GREY_BASE,
    LINES,
    N_STOPS,
    OUT,
    STOP_NAMES,
    corner,
)
from games.pentagame.notation import Move
from games.pentagame.replay import check_record, start_game, state_at
from games.pentagame.rules import Position
from games.pictures.shapes import SEAT_SHAPES

# A player's set is told apart by its shape (book §1: "stars ... moons ... circles,
# triangles, or squares"); the fifth only matters at a five-player table.
SHAPES = SEAT_SHAPES

# --- geometry (book §15, "Solving the board") ------------------------------------------

PHI = (1 + math.sqrt(5)) / 2
STOP_R = 1.0  # s: the stops on the lines are the unit
CORNER_R = math.sqrt(5)  # c = 1/sin(18°) - 1, equation (10)
# j from the first condition, c + j + 2l = φ(2j + 2k) with k = 3, l = 6. (The book
# prints 2.02606 beside equation (11); the equation itself gives 2.0249, and only that
# value makes long and short lines meet in the golden proportion.)
CROSSING_R = (9 - 2 * math.sqrt(5)) / math.sqrt(5)
CHORD = 2 * (CORNER_R + 12 + CROSSING_R) + (2 * CROSSING_R + 6)  # d, equation (12)
RIM_R = CHORD / math.sqrt(PHI + 2)  # r, equation (13): the circle through the corners
BOARD_R = RIM_R + CORNER_R  # R, equation (15)


def _angle(k: float) -> float:
    """Corner k's direction: W at the top, then clockwise on screen (y points down)."""
    return math.radians(-90 + 72 * k)


def _node_xy(node: int) -> tuple[float, float]:
    if node in CORNERS:
        a = _angle(node)
        return RIM_R * math.cos(a), RIM_R * math.sin(a)
    # A crossing lies exactly opposite the corner of its colour, on the inner pentagon,
    # whose corners are r/φ² from the centre.
    a = _angle(node - CROSSINGS[0])
    inner = RIM_R / PHI**2
    return -inner * math.cos(a), -inner * math.sin(a)


def _node_r(node: int) -> float:
    return CORNER_R if node in CORNERS else CROSSING_R


@lru_cache(maxsize=1)
def board_geometry() -> dict[str, Any]:
    """Every stop's centre and radius in units of a line stop's radius, for the SVG."""
    xy: dict[int, tuple[float, float]] = {n: _node_xy(n) for n in range(10)}
    for li, (a, b, n) in enumerate(LINES):
        base = 10 + sum(k for _, _, k in LINES[:li])
        if a in CORNERS and b in CORNERS:
            # The rim: n equal stops on the arc between two corners, clockwise from a.
            for k in range(1, n + 1):
                t = _angle(a + k / (n + 1))
                xy[base + k - 1] = RIM_R * math.cos(t), RIM_R * math.sin(t)
            continue
        # Straight lines: the stops touch each other and both nodes, so the k-th centre
        # is the first node's radius plus 2k - 1 unit radii along the line.
        (ax, ay), (bx, by) = xy[a], xy[b]
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        for k in range(1, n + 1):
            d = _node_r(a) + (2 * k - 1) * STOP_R
            xy[base + k - 1] = ax + d * ux, ay + d * uy
    stops = []
    for s in range(N_STOPS):
        x, y = xy[s]
        kind = "corner" if s in CORNERS else "crossing" if s in CROSSINGS else "stop"
        colour = COLOURS[s % 5] if s < 10 else None
        stops.append(
            {
                "id": s,
                "name": STOP_NAMES[s],
                "x": round(x, 3),
                "y": round(y, 3),
                "r": round(_node_r(s) if s < 10 else STOP_R, 3),
                "kind": kind,
                "colour": colour,
            }
        )
    chords = [
        [[round(v, 3) for v in xy[chord[0]]], [round(v, 3) for v in xy[chord[-1]]]]
        for chord in CHORDS
    ]
    edge = round(BOARD_R + 0.6, 3)  # room for the outline of the corner stops
    return {
        "viewbox": f"{-edge} {-edge} {2 * edge} {2 * edge}",
        "rim": round(RIM_R, 3),
        "size": round(BOARD_R, 3),
        "stops": stops,
        "chords": chords,
        "corners": [corner(i) for i in range(5)],
    }


# --- positions and legal moves --------------------------------------------------------


def _position(state: pentagame.State) -> dict[str, Any]:
    rules = state.rules
    pieces = [
        {
            "id": p,
            "seat": rules.owner[p] + 1,
            "colour": COLOURS[rules.colour[p]],
            "stop": None if stop == OUT else stop,
        }
        for p, stop in enumerate(state.pieces)
    ]
    # Turns go round strictly (a lost turn is a ply too), so ply k was seat (k-1) % n's.
    last = state.last[(state.ply - 1) % state.players] if state.ply else None
    return {
        "ply": state.ply,
        "last": None if last is None else [last[1], last[2]],
        "pieces": pieces,
        "black": list(state.black),
        "grey": [None if g == OUT else g for g in state.grey],
        "to_move": state.to_move,
        "finished": state.finished,
        "out": [[COLOURS[c] for c in seat] for seat in state.out],
    }


def _mover(game: Position, move: Move) -> int:
    r = game.rules
    own = [
        p
        for p in r.seat_pieces[game.seat]
        if game.pos[p] == move.frm and (move.piece is None or r.colour[p] == move.piece)
    ]
    return own[0]


def _free_after(state: pentagame.State, move: Move) -> dict[str, Any] | None:
    """What a move still needs besides from and to: where a taken black block goes, where
    the grey block goes when the piece goes out, and which grey block moves when the
    reserve is empty. None when the move is complete as it stands.

    The stops offered are found by the engine itself: the move is applied once with
    probe stops, and every stop empty afterwards (plus the probes) is a stop the block
    could have gone on. The page only has to keep the two blocks off one stop.
    """
    game = Position(state)
    r = game.rules
    thing = game.cell[move.to] if move.to >= 0 and game.cnt[move.to] == 1 else -1
    takes_black = move.kind == "x" and BLACK_BASE <= thing < GREY_BASE
    takes_grey = move.kind == "x" and thing >= GREY_BASE
    goes_out = move.kind == "z" or r.goal[_mover(game, move)] == move.to
    if not takes_black and not goes_out:
        return None
    moves_grey = goes_out and OUT not in game.grey and not takes_grey
    empty = [s for s in range(N_STOPS) if game.cnt[s] == 0 and s != move.to]
    black_probes: list[int | None] = [*empty, move.frm] if takes_black else [None]
    sources = [g for g in game.grey if g != OUT] if moves_grey else [None]
    for black in black_probes:
        for grey in [s for s in empty if s != black] if goes_out else [None]:
            probe = move._replace(black=black, grey=grey, grey_from=sources[0])
            after = Position(state)
            try:
                after.apply(probe)
            except pentagame.PentagameError:
                continue
            free = {s for s in range(N_STOPS) if after.cnt[s] == 0}
            free |= {s for s in (black, grey) if s is not None}
            free.discard(sources[0])  # it held a grey block while the move was made
            return {
                "black": takes_black,
                "out": goes_out,
                "grey_from": sources if moves_grey else None,
                "free": sorted(free),
            }
    return None  # pragma: no cover - a generated legal move always has some completion


def _legal(state: pentagame.State) -> list[dict[str, Any]]:
    out = []
    for move in pentagame.legal_moves(state):
        entry: dict[str, Any] = {
            "text": pentagame.format_move(move),
            "kind": move.kind,
            "from": None if move.frm < 0 else move.frm,
            "to": None if move.to < 0 else move.to,
        }
        if move.kind != "pass":
            needs = _free_after(state, move)
            if needs:
                entry.update(needs)
        out.append(entry)
    return out


def _replayed(record: dict[str, Any], position: Any) -> pentagame.ReplayResult:
    """The record's result, from its stored position when it is the record's (a ply
    recorded live, games/pentagame/replay.py `extend`), else replayed."""
    players, variant, moves = check_record(record)
    state = state_at(position, players, variant, len(moves))
    if state is None:
        return pentagame.replay(record)
    return pentagame.ReplayResult.of_final(state, state.ply, None, pentagame.result(state))


def position_payload(record: dict[str, Any], position: Any = None) -> dict[str, Any]:
    """The position after a record and the legal moves from it; raises RecordError.
    ``position``: the position stored with the record, read instead of replaying it."""
    result = _replayed(record, position)
    payload = _position(result.state)
    payload.update(
        ok=result.ok,
        plies=result.plies,
        moves=list(record["moves"][: result.plies]),
        winners=list(result.winners),
        error=None
        if result.error is None
        else {"ply": result.error.ply, "move": result.error.move, "reason": result.error.reason},
        legal=_legal(result.state) if result.ok else [],
    )
    return payload


def position_snapshot(record: dict[str, Any], position: Any = None) -> dict[str, Any]:
    """The position after a record, as a spectator's board draws it: no legal moves
    (they cost more than the rest and only the recording device needs them). A record
    that stops being legal shows its position before the bad ply. ``position`` as in
    `position_payload`."""
    result = _replayed(record, position)
    return {**_position(result.state), "plies": result.plies}


def replay_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The position before the first ply and after each legal ply of a record."""
    players, variant, moves = check_record(record)
    game = start_game(players, variant)
    frames = [_position(game.state())]
    for text in moves:
        try:
            game.apply(pentagame.parse_move(text))
        except pentagame.PentagameError:
            break
        frames.append(_position(game.state()))
    return frames
