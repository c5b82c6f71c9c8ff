"""State of a Pentamid Twist game and the rules that change it
(docs/rules-pentamid-twist.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .board import COASTERS, LINES, NEIGHBOURS, ROTATIONS, SIZE, SQUARES, TURNS, square_name
from .errors import IllegalMove
from .notation import SIZES, Move

NESTS = 5  # one trio (small, medium, large) per nest, five nests per player
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}

Stack = tuple[int, ...]  # pieces bottom first; a piece is 10 * seat + size
Board = tuple[Stack, ...]
# A player's reserve: how many nests have a large, a medium or a small piece on top.
Nests = tuple[int, int, int]
Key = tuple[Board, int]


def piece(seat: int, size: int) -> int:
    return 10 * seat + size


def owner(p: int) -> int:
    return p // 10


def size_of(p: int) -> int:
    return p % 10


EMPTY: Board = tuple(() for _ in range(SQUARES))
FULL_NESTS: Nests = (NESTS, 0, 0)


@dataclass(frozen=True, slots=True)
class State:
    """board: 36 stacks, index rank * 6 + file. reserve: each seat's nests. to_move:
    seat 0 or 1. seen: the game states (board, player to move) reached since the last
    drop, the only ones a step can repeat. winner: the seat with a line of five; over:
    the game has ended (a draw when winner is None)."""

    board: Board = EMPTY
    reserve: tuple[Nests, Nests] = (FULL_NESTS, FULL_NESTS)
    to_move: int = 0
    seen: frozenset[Key] = frozenset({(EMPTY, 0)})
    winner: int | None = None
    over: bool = False


def initial_state() -> State:
    return State()


def lines_of(board: Board) -> set[int]:
    """Seats owning a line of five uncovered pieces."""
    tops = [owner(s[-1]) if s else -1 for s in board]
    found = set()
    for line in LINES:
        o = tops[line[0]]
        if o >= 0 and all(tops[i] == o for i in line):
            found.add(o)
    return found


def _nest_index(size: int) -> int:
    return 3 - size  # large-topped nests first


def droppable(nests: Nests) -> list[int]:
    """Sizes on top of some reserve nest, largest first."""
    return [3 - i for i in range(3) if nests[i]]


def _rotate(board: list[Stack], coaster: str, turn: int) -> Board:
    src = ROTATIONS[(coaster, turn)]
    return tuple(board[i] for i in src)


def _piece_actions(state: State) -> Iterator[tuple[Move, list[Stack]]]:
    """Every piece action with the board after it (coaster and turn left blank)."""
    seat = state.to_move
    board = state.board
    for size in droppable(state.reserve[seat]):
        p = (piece(seat, size),)
        for sq in range(SQUARES):
            if not board[sq]:
                after = list(board)
                after[sq] = p
                yield Move("drop", size, -1, sq, "", 0), after
    for sq in range(SQUARES):
        stack = board[sq]
        if not stack or owner(stack[-1]) != seat:
            continue
        top = stack[-1]
        for to in NEIGHBOURS[sq]:
            dest = board[to]
            if dest and size_of(dest[-1]) >= size_of(top):
                continue
            after = list(board)
            after[sq] = stack[:-1]
            after[to] = dest + (top,)
            yield Move("step", 0, sq, to, "", 0), after


def _turns(state: State) -> Iterator[Move]:
    nxt = 1 - state.to_move
    seen = state.seen
    for action, after in _piece_actions(state):
        for coaster in COASTERS:
            for turn in TURNS:
                if action.kind == "step" and (_rotate(after, coaster, turn), nxt) in seen:
                    continue
                yield Move(action.kind, action.size, action.frm, action.to, coaster, turn)


def legal_moves(state: State) -> list[Move]:
    """Every legal turn of the player to move; [] when the game is over."""
    if state.over:
        return []
    return list(_turns(state))


def has_turn(state: State) -> bool:
    if any(state.reserve[state.to_move]):
        return True  # a drop never repeats a state, and 30 pieces leave a square vacant
    return next(_turns(state), None) is not None


def finished(state: State) -> bool:
    return state.over


def result(state: State) -> tuple[int, int]:
    """Per seat: 1 for the winner, 0 otherwise (a draw or a game still running is 0 : 0)."""
    if state.winner is None:
        return (0, 0)
    return (1, 0) if state.winner == 0 else (0, 1)


def _piece_action(state: State, move: Move) -> tuple[list[Stack], tuple[Nests, Nests]]:
    seat = state.to_move
    board = list(state.board)
    reserve = state.reserve
    if not 0 <= move.to < SQUARES:
        raise IllegalMove("no such square")
    if move.kind == "drop":
        if move.size not in SIZE_NAMES:
            raise IllegalMove("a piece is small, medium or large")
        if board[move.to]:
            raise IllegalMove(f"{square_name(move.to)} is not vacant: drop on an empty square")
        nests = list(reserve[seat])
        i = _nest_index(move.size)
        if not nests[i]:
            sizes = droppable(reserve[seat])
            can = (
                "your reserve is empty"
                if not sizes
                else "you can drop " + " or ".join(SIZES[s - 1] for s in sizes)
            )
            raise IllegalMove(f"no reserve nest has a {SIZE_NAMES[move.size]} piece on top: {can}")
        nests[i] -= 1
        if i < 2:
            nests[i + 1] += 1
        mine: Nests = (nests[0], nests[1], nests[2])
        reserve = (mine, reserve[1]) if seat == 0 else (reserve[0], mine)
        board[move.to] = (piece(seat, move.size),)
        return board, reserve
    if move.kind != "step" or not 0 <= move.frm < SQUARES:
        raise IllegalMove("a piece action is a drop or a step")
    name = square_name(move.frm)
    stack = board[move.frm]
    if not stack:
        raise IllegalMove(f"there is no piece on {name}")
    top = stack[-1]
    if owner(top) != seat:
        if any(owner(p) == seat for p in stack):
            raise IllegalMove(f"your piece on {name} is covered and may not move")
        raise IllegalMove(f"the piece on {name} is not yours")
    if move.to not in NEIGHBOURS[move.frm]:
        raise IllegalMove("a piece steps one square horizontally or vertically")
    dest = board[move.to]
    if dest and size_of(dest[-1]) >= size_of(top):
        under = SIZE_NAMES[size_of(dest[-1])]
        raise IllegalMove(
            f"a {SIZE_NAMES[size_of(top)]} piece cannot cover the {under} piece on "
            f"{square_name(move.to)}: only a larger piece covers a smaller one"
        )
    board[move.frm] = stack[:-1]
    board[move.to] = dest + (top,)
    return board, reserve


def apply_move(state: State, move: Move) -> State:
    """The state after a whole turn; raises IllegalMove with the reason."""
    if state.over:
        raise IllegalMove("the game is over")
    board, reserve = _piece_action(state, move)
    if move.coaster not in COASTERS or move.turn not in TURNS:
        raise IllegalMove("the board action turns a coaster (nw, ne, sw, se) by +, - or ++")
    after = _rotate(board, move.coaster, move.turn)
    nxt = 1 - state.to_move
    key = (after, nxt)
    if move.kind == "drop":
        seen = frozenset({key})  # more pieces on the board than in any earlier state
    else:
        if key in state.seen:
            raise IllegalMove("this turn would repeat an earlier game state")
        seen = state.seen | {key}
    lines = lines_of(after)
    if lines:
        winner = next(iter(lines)) if len(lines) == 1 else None
        return State(after, reserve, nxt, seen, winner, True)
    new = State(after, reserve, nxt, seen)
    if not has_turn(new):
        return State(after, reserve, nxt, seen, None, True)
    return new


def describe(state: State) -> str:
    """Rows from rank 6 down; each square its stack bottom first (`S1`: a small piece of
    the first player, `M2`: a medium of the second), `.` when vacant."""
    rows = []
    for rank in reversed(range(SIZE)):
        cells = []
        for f in range(SIZE):
            stack = state.board[rank * SIZE + f]
            cells.append("/".join(f"{SIZES[size_of(p) - 1]}{owner(p) + 1}" for p in stack) or ".")
        rows.append(" ".join(cells))
    return "\n".join(rows)
