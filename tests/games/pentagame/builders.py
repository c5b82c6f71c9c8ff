"""Building hand-made positions for the Pentagame tests."""

from __future__ import annotations

from games.pentagame import State, initial_state, parse_stop
from games.pentagame.board import COLOURS


def position(
    players: int = 2,
    variant: str = "standard",
    pieces: dict[str, str] | None = None,
    black: list[str] | None = None,
    grey: list[str] | None = None,
    to_move: int = 1,
    out: dict[int, str] | None = None,
) -> State:
    """A position from the start one: pieces maps "<seat><colour>" (e.g. "1w", or "3a" for
    the a-th alike piece in the five-player game) to a stop name or "out"; black and grey
    list block stops (grey: missing ones stay in the reserve); out maps seat -> colours
    out in order (their pieces must be marked "out" too)."""
    st = initial_state(players, variant)
    pos = list(st.pieces)
    per_seat = len(pos) // players
    for key, where in (pieces or {}).items():
        seat, c = int(key[0]) - 1, key[1]
        idx = COLOURS.index(c) if players < 5 else "abcd".index(c)
        pos[seat * per_seat + idx] = -1 if where == "out" else parse_stop(where)
    blk = tuple(parse_stop(s) for s in black) if black is not None else st.black
    gry = [parse_stop(s) for s in grey or []]
    gry += [-1] * (5 - len(gry))
    outs = [tuple(COLOURS.index(c) for c in (out or {}).get(s + 1, "")) for s in range(players)]
    return State(
        players=st.players,
        variant=st.variant,
        pieces=tuple(pos),
        black=blk,
        grey=tuple(gry),
        to_move=to_move,
        ply=to_move - 1,
        last=(None,) * players,
        out=tuple(outs),
        finished=False,
    )


def stop_of(state: State, seat: int, colour: str) -> int:
    per_seat = len(state.pieces) // state.players
    return state.pieces[(seat - 1) * per_seat + COLOURS.index(colour)]
