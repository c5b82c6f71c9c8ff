"""Random legal games for engines whose positions are immutable states."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

S = TypeVar("S")
M = TypeVar("M")


def random_moves(
    state: S,
    legal_moves: Callable[[S], Sequence[M]],
    apply_move: Callable[[S, M], S],
    format_move: Callable[[M], str],
    rng: random.Random,
    max_plies: int,
) -> list[str]:
    """The moves of a random legal game from `state`, each chosen by `rng` among the
    legal ones, until none is left or max_plies are played."""
    moves: list[str] = []
    while len(moves) < max_plies:
        legal = legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        state = apply_move(state, move)
        moves.append(format_move(move))
    return moves
