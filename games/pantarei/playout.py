"""Random legal games, for tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from .notation import format_move
from .rules import apply_move, initial_state, legal_moves, random_setup


def random_record(seed: int = 0, max_plies: int = 400) -> dict[str, Any]:
    """A record of one random legal game from a random setup (stops after max_plies if
    still running)."""
    rng = random.Random(seed)
    setup = random_setup(rng)
    first = rng.choice(("white", "black"))
    state = initial_state(setup, first[0].upper())
    moves: list[str] = []
    while len(moves) < max_plies:
        legal = legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        state = apply_move(state, move)
        moves.append(format_move(move))
    return {"players": 2, "setup": setup, "first": first, "moves": moves}
