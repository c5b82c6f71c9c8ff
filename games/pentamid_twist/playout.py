"""Random legal games, for tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from games.engine_common.playout import random_moves

from .notation import format_move
from .rules import apply_move, initial_state, legal_moves


def random_record(seed: int = 0, max_plies: int = 120) -> dict[str, Any]:
    """A record of one random legal game (stops after max_plies if still running)."""
    rng = random.Random(seed)
    state = initial_state()
    moves = random_moves(state, legal_moves, apply_move, format_move, rng, max_plies)
    return {"players": 2, "variant": "standard", "moves": moves}
