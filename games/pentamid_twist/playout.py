"""Random legal games, for tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from .notation import format_move
from .rules import apply_move, initial_state, legal_moves


def random_record(seed: int = 0, max_plies: int = 120) -> dict[str, Any]:
    """A record of one random legal game (stops after max_plies if still running)."""
    rng = random.Random(seed)
    state = initial_state()
    moves: list[str] = []
    while len(moves) < max_plies:
        legal = legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        state = apply_move(state, move)
        moves.append(format_move(move))
    return {"players": 2, "variant": "standard", "moves": moves}
