"""The book's notation in ASCII: stops (`W`, `r`, `W3r`, `Wr3`, `Wb11`) and moves.

A move is `<from><op><to>`, optionally `:<stop>` (where a taken black block goes) and
`z<stop>` or `z<stop>><stop>` (the piece went out; a grey block goes on the stop, or the
grey block on the first stop moves to the second when the reserve is empty). Ops: `-`,
`x`, `s`, `s!`, `s!<seat>`. `<goal>z<stop>` takes out a piece that someone else put on
its goal, and `pass` is a lost turn. A piece on a shared stop is named by its colour in
brackets: `W[b]-W3r`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from .board import COLOURS, NODE_NAMES, STOP_NAMES, walk
from .errors import NotationError

OPS: Final = ("-", "x", "s", "s!", "z", "pass")
_NODE = "[WBRYGwbryg]"
_STOP = f"{_NODE}(?:[0-9]+{_NODE}|{_NODE}[0-9]*)?"
_COL = r"(?:\[([A-Za-z])\])?"
_MOVE_RE: Final = re.compile(
    rf"({_STOP}){_COL}(?:"
    rf"(z)({_STOP})(?:>({_STOP}))?"
    rf"|(-|x|X|×|s!|s)([0-9]?)({_STOP}){_COL}(?::({_STOP}))?(?:z({_STOP})(?:>({_STOP}))?)?"
    r")"
)

# The plain move forms, for the fast path of `parse_move_cached` (every part is checked to be a
# stop name there; anything else takes the full grammar).
_PLAIN_RE: Final = re.compile(
    r"([^-xs:z>]+)(-|x|s!|s)([^:z>]+)(?::([^z>]+))?(?:z([^>]+)(?:>(.+))?)?"
)


def _all_spellings() -> dict[str, int]:
    """Every accepted spelling of every stop: `r`, `W3r`, `Wr3`, `Wb3` (along a chord,
    nodes counting as steps), `W7r`, `Wr` (the book drops the count at a node)."""
    names = {name: i for i, name in enumerate(STOP_NAMES)}
    for x in range(10):
        for y in range(10):
            path = walk(x, y) if x != y else None
            if path is None:
                continue
            X, Y = NODE_NAMES[x], NODE_NAMES[y]
            names.setdefault(f"{X}{Y}", path[-1])
            for k in range(1, len(path)):
                names.setdefault(f"{X}{k}{Y}", path[k])
                names.setdefault(f"{X}{Y}{k}", path[k])
    return names


_SPELLINGS: Final = _all_spellings()


class Move(NamedTuple):
    """One ply. Stops are ids 0..99; colours are 0..4 (w b r y g); seat is 1-based.

    kind is one of `-`, `x`, `s`, `s!`, `z` (a waiting piece goes out) or `pass`.
    `piece` names the moving piece and `target` the swapped piece when written in brackets;
    `grey_from` is set when a grey block already on the board is re-positioned.
    """

    kind: str
    frm: int = -1
    to: int = -1
    piece: int | None = None
    target: int | None = None
    seat: int | None = None
    black: int | None = None
    grey: int | None = None
    grey_from: int | None = None


PASS: Final = Move("pass")


def parse_stop(text: str) -> int:
    """Stop id of a stop name; raises NotationError."""
    stop = _parse_stop(text.strip()) if isinstance(text, str) else None
    if stop is None:
        raise NotationError(f"`{text}` is not a stop")
    return stop


def _parse_stop(text: str) -> int | None:
    return _SPELLINGS.get(text)


def format_stop(stop: int) -> str:
    """The canonical name of a stop id."""
    if not 0 <= stop < len(STOP_NAMES):
        raise NotationError(f"{stop} is not a stop id")
    return STOP_NAMES[stop]


def parse_move(text: str) -> Move:
    """Parse one move; raises NotationError with a reason."""
    if not isinstance(text, str):
        raise NotationError("a move must be a string")
    move = parse_move_cached(text)
    if isinstance(move, str):
        raise NotationError(move)
    return move


def _colour(letter: str | None, where: str) -> int | None:
    if letter is None:
        return None
    c = letter.lower()
    if c not in COLOURS:
        raise NotationError(f"`[{letter}]` after {where} is not a colour (w, b, r, y, g)")
    return COLOURS.index(c)


@lru_cache(maxsize=65536)
def parse_move_cached(text: str) -> Move | str:
    """The Move of a text, or the reason it cannot be read (cached: records repeat)."""
    if not isinstance(text, str):
        return "a move must be a string"
    # Fast path for the plain forms `<stop><op><stop>[:<stop>][z<stop>[><stop>]]`: the
    # separators never occur in a stop's name, so when every part is a known stop the
    # text reads exactly as the grammar below would read it.
    get = _SPELLINGS.get
    # The plainest form, `<stop>-<stop>`, without the regular expression.
    frm_t, dash, to_t = text.partition("-")
    if dash:
        frm = get(frm_t)
        to = get(to_t)
        if frm is not None and to is not None:
            return _new(Move, ("-", frm, to, None, None, None, None, None, None))
    # The other plain forms, split at their separators without the regular expression.
    head, z, grey_t = text.partition("z")
    head, colon, black_t = head.partition(":")
    for op in _PLAIN_OPS:
        frm_t, sep, to_t = head.partition(op)
        if sep:
            frm = get(frm_t)
            to = get(to_t)
            if frm is None or to is None:
                break
            black = get(black_t) if colon else None
            if colon and black is None:
                break
            if not z:
                return _new(Move, (op, frm, to, None, None, None, black, None, None))
            grey_from_t, arrow, grey_to_t = grey_t.partition(">")
            if arrow:
                grey_from = get(grey_from_t)
                grey = get(grey_to_t)
                if grey_from is None or grey is None:
                    break
                return _new(Move, (op, frm, to, None, None, None, black, grey, grey_from))
            grey = get(grey_t)
            if grey is None:
                break
            return _new(Move, (op, frm, to, None, None, None, black, grey, None))
    m = _PLAIN_RE.fullmatch(text)
    if m is not None:
        frm_t, op, to_t, black_t, grey_t, grey_to_t = m.groups()
        frm = get(frm_t)
        to = get(to_t)
        if frm is not None and to is not None:
            black = None if black_t is None else get(black_t)
            grey = None if grey_t is None else get(grey_t)
            grey_to = None if grey_to_t is None else get(grey_to_t)
            if (
                (black is not None or black_t is None)
                and (grey is not None or grey_t is None)
                and (grey_to is not None or grey_to_t is None)
            ):
                if grey_to is not None:
                    return _new(Move, (op, frm, to, None, None, None, black, grey_to, grey))
                return _new(Move, (op, frm, to, None, None, None, black, grey, None))
    s = "".join(text.split())
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    if not s:
        return "the move is empty"
    m = _MOVE_RE.fullmatch(s)
    if m is None:
        return PASS if s.lower() == "pass" else _explain(s)
    g = m.groups()
    get = _SPELLINGS.get
    stops = [
        None if t is None else get(t, -1) for t in (g[0], g[3], g[4], g[7], g[9], g[10], g[11])
    ]
    if -1 in stops:
        bad = (g[0], g[3], g[4], g[7], g[9], g[10], g[11])[stops.index(-1)]
        return f"`{text.strip()}`: `{bad}` is not a stop"
    frm, z_grey, z_to, to, black, grey, grey_to = stops
    if frm is None:
        return f"`{text.strip()}`: no starting stop"
    try:
        piece = _colour(g[1], "the starting stop")
        target = _colour(g[8], "the target stop")
    except NotationError as exc:
        return f"`{text.strip()}`: {exc.reason}"
    if g[2] == "z":
        if z_to is not None:
            return Move("z", frm, -1, piece, grey=z_to, grey_from=z_grey)
        return Move("z", frm, -1, piece, grey=z_grey)
    op = _OP_ALIASES.get(g[5], g[5])
    seat = int(g[6]) if g[6] else None
    if seat is not None and op != "s!":
        return f"`{text.strip()}`: a seat number only follows `s!`, not `{op}`"
    if seat is not None and not 1 <= seat <= 5:
        return f"`{text.strip()}`: seat {seat} does not exist"
    if to is None:
        return f"`{text.strip()}`: no target stop"
    if grey_to is not None:
        return Move(op, frm, to, piece, target, seat, black, grey_to, grey)
    return Move(op, frm, to, piece, target, seat, black, grey)


_OP_ALIASES: Final = {"X": "x", "×": "x"}
# The signs of the plain forms, `s!` before `s` (no stop's name holds any of them).
_PLAIN_OPS: Final = ("x", "s!", "s", "-")
_new: Final = tuple.__new__  # builds a Move without NamedTuple.__new__'s Python frame


def _explain(s: str) -> str:
    """A reason for text that does not match the move grammar."""
    m = re.match(_STOP, s)
    if m is None:
        return f"`{s}` does not start with a stop (a corner W B R Y G, a crossing w b r y g, or e.g. W3r)"
    rest = s[m.end() :]
    if _parse_stop(m.group(0)) is None:
        return f"`{m.group(0)}` is not a stop"
    if not rest:
        return f"`{s}` has a stop but no move (expected -, x, s, s! or z after it)"
    if rest[0] not in "-xX×s[z":
        return f"`{rest[0]}` after {m.group(0)} is not a move sign (expected -, x, s, s! or z)"
    return f"`{s}` is not a move in the book's notation, e.g. W-W3r, Wxr:G2W, GsW, Gs!W, rzG2W"


def format_move(move: Move) -> str:
    """Canonical text of a move."""
    if move.kind == "pass":
        return "pass"
    out = [format_stop(move.frm)]
    if move.piece is not None:
        out.append(f"[{COLOURS[move.piece]}]")
    if move.kind != "z":
        out.append(move.kind)
        if move.seat is not None:
            out.append(str(move.seat))
        out.append(format_stop(move.to))
        if move.target is not None:
            out.append(f"[{COLOURS[move.target]}]")
        if move.black is not None:
            out.append(":" + format_stop(move.black))
    if move.grey is not None:
        out.append("z")
        if move.grey_from is not None:
            out.append(format_stop(move.grey_from) + ">")
        out.append(format_stop(move.grey))
    elif move.kind == "z":
        out.append("z")
    return "".join(out)
