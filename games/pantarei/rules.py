"""State of a Pantarei game and the rules that change it (docs/rules-pantarei.md)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import IllegalMove, NotationError, RecordError
from .notation import PASS, SCALES, SLOTS, Move, colour, format_move, parse_scale, value

WIN_HEIGHT = 7
COLOURS = ("W", "B")
COLOUR_NAMES = {"W": "white", "B": "black", "N": "neutral"}
# Three of each value per colour, plus the neutral scale: 19 in all.
FULL_SET: Counter[str] = Counter({s: 3 for s in SCALES if s != "N"} | {"N": 1})

Stack = tuple[str, ...]  # bottom first, top last; () for an empty slot


@dataclass(frozen=True, slots=True)
class State:
    """slots: the 19 slots from head to tail, each a stack bottom first. first: the
    colour of seat 0, who plays first. to_move: seat 0 or 1. last_swap: the previous
    turn was a swap. winner: the seat that completed a stack of 7."""

    slots: tuple[Stack, ...]
    first: str = "W"
    to_move: int = 0
    last_swap: bool = False
    winner: int | None = None

    def colour_of(self, seat: int) -> str:
        return self.first if seat == 0 else other(self.first)


def other(c: str) -> str:
    return "B" if c == "W" else "W"


def check_setup(setup: object) -> tuple[str, ...]:
    """The 19 scales head to tail, validated; raises RecordError."""
    if not isinstance(setup, list | tuple) or not all(isinstance(s, str) for s in setup):
        raise RecordError('`setup` must be a list of 19 scales such as "W2", "B1", "N"')
    try:
        scales = tuple(parse_scale(s) for s in setup)
    except NotationError as exc:
        raise RecordError(f"`setup`: {exc.reason}") from None
    if Counter(scales) != FULL_SET:
        raise RecordError(
            "`setup` must hold each of W1 W2 W3 B1 B2 B3 three times and N once (19 scales)"
        )
    return scales


def random_setup(rng: random.Random) -> list[str]:
    scales = sorted(FULL_SET.elements())
    rng.shuffle(scales)
    return scales


def initial_state(setup: Sequence[str], first: str = "W") -> State:
    scales = check_setup(list(setup))
    if first not in COLOURS:
        raise RecordError('`first` must be "white" or "black"')
    return State(slots=tuple((s,) for s in scales), first=first)


def controller(stack: Stack) -> str | None:
    """The colour of the top scale ('W', 'B' or 'N'); None for an empty slot."""
    return colour(stack[-1]) if stack else None


def destinations(slots: Sequence[Stack], frm: int, steps: int) -> list[int]:
    """0-based slots `steps` stacks away from slot `frm`, towards the head and the tail,
    counting only occupied slots; a direction that runs past the head or tail gives
    nothing."""
    out = []
    for d in (-1, 1):
        i, left = frm, steps
        while left:
            i += d
            if not 0 <= i < SLOTS:
                break
            if slots[i]:
                left -= 1
        if left == 0:
            out.append(i)
    return out


def actions(state: State, seat: int, swaps_allowed: bool) -> list[Move]:
    """Every move and swap of `seat` (no pass), swaps only if allowed."""
    mine = state.colour_of(seat)
    slots = state.slots
    own = [i for i, st in enumerate(slots) if st and colour(st[-1]) == mine]
    out: list[Move] = []
    for i in own:
        stack = slots[i]
        for to in destinations(slots, i, value(stack[-1])):
            out.append(Move("move", i + 1, to + 1, 1))
            if len(stack) >= 2:
                out.append(Move("move", i + 1, to + 1, 2))
    if swaps_allowed:
        for a, i in enumerate(own):
            for j in own[a + 1 :]:
                out.append(Move("swap", i + 1, j + 1))
    return sorted(out)


def deadlocked(state: State) -> bool:
    """Neither player can move or swap, even with swaps allowed: passing would go on
    for ever, so the game ends in a draw."""
    return not actions(state, 0, True) and not actions(state, 1, True)


def finished(state: State) -> bool:
    return state.winner is not None or deadlocked(state)


def legal_moves(state: State) -> list[Move]:
    """The legal moves of the player to move: `[PASS]` when they can neither move nor
    swap, `[]` when the game is over."""
    if finished(state):
        return []
    return actions(state, state.to_move, not state.last_swap) or [PASS]


def result(state: State) -> tuple[int, int]:
    """Per seat: 1 for the winner, 0 otherwise (a draw or a game still running is 0 : 0)."""
    if state.winner is None:
        return (0, 0)
    return (1, 0) if state.winner == 0 else (0, 1)


def _name(scale: str) -> str:
    return "the neutral scale" if scale == "N" else f"{COLOUR_NAMES[colour(scale)]} {scale}"


def apply_move(state: State, move: Move) -> State:
    """The state after `move`; raises IllegalMove with the reason."""
    if finished(state):
        raise IllegalMove("the game is over")
    seat = state.to_move
    mine = state.colour_of(seat)
    slots = list(state.slots)
    if move.kind == "pass":
        if actions(state, seat, not state.last_swap):
            raise IllegalMove("you may pass only when you can neither move nor swap")
        return State(state.slots, state.first, 1 - seat, False, None)
    a, b = move.frm - 1, move.to - 1
    for i in (a, b):
        if not 0 <= i < SLOTS:
            raise IllegalMove(f"slot {i + 1} does not exist: slots are 1 to {SLOTS}")
    if not slots[a]:
        raise IllegalMove(f"slot {move.frm} is empty")
    if move.kind == "swap":
        if a == b:
            raise IllegalMove("a swap needs two different stacks")
        if not slots[b]:
            raise IllegalMove(f"slot {move.to} is empty")
        for i in (a, b):
            c = controller(slots[i])
            if c != mine:
                raise IllegalMove(
                    f"the stack on slot {i + 1} is controlled by {COLOUR_NAMES[c or 'N']}, "
                    f"not {COLOUR_NAMES[mine]}: you can only swap your own stacks"
                )
        if state.last_swap:
            raise IllegalMove("swapping is forbidden right after the opponent swapped")
        slots[a], slots[b] = slots[b], slots[a]
        return State(tuple(slots), state.first, 1 - seat, True, None)
    stack = slots[a]
    top = stack[-1]
    if top == "N":
        raise IllegalMove("the neutral scale cannot move by itself")
    if colour(top) != mine:
        raise IllegalMove(
            f"the top scale on slot {move.frm} is {_name(top)}: you play {COLOUR_NAMES[mine]}"
        )
    if move.count not in (1, 2):
        raise IllegalMove("a move carries one scale or two")
    if move.count > len(stack):
        raise IllegalMove(
            f"slot {move.frm} holds a single scale: write `{move.frm}-{move.to}` to move it"
        )
    steps = value(top)
    reach = destinations(slots, a, steps)
    if b not in reach:
        where = (
            "it can reach slot " + " or ".join(str(i + 1) for i in reach)
            if reach
            else "every such move passes over the head or the tail of the snake"
        )
        raise IllegalMove(
            f"{_name(top)} on slot {move.frm} moves exactly {steps} "
            f"stack{'s' if steps > 1 else ''} along the snake, so not to slot {move.to}: "
            f"{where}"
        )
    carried = stack[-move.count :]
    slots[a] = stack[: -move.count]
    slots[b] = slots[b] + carried
    winner = seat if len(slots[b]) >= WIN_HEIGHT else None
    return State(tuple(slots), state.first, 1 - seat, False, winner)


def describe(state: State) -> str:
    """A one-line picture: slots head to tail, stacks bottom first, `.` when empty."""
    return " ".join("+".join(st) if st else "." for st in state.slots)


__all__ = [
    "PASS",
    "State",
    "actions",
    "apply_move",
    "check_setup",
    "controller",
    "describe",
    "destinations",
    "finished",
    "format_move",
    "initial_state",
    "legal_moves",
    "random_setup",
    "result",
]
