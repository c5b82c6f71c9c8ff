"""Random legal games, for tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from games.engine_common.playout import random_moves

from .notation import format_move
from .rules import apply_move, initial_state, legal_moves, random_setup


def random_record(seed: int = 0, max_plies: int = 400) -> dict[str, Any]:
    """A record of one random legal game from a random setup (stops after max_plies if
    still running)."""
    rng = random.Random(seed)
    setup = random_setup(rng)
    first = rng.choice(("white", "black"))
    state = initial_state(setup, first[0].upper())
    moves = random_moves(state, legal_moves, apply_move, format_move, rng, max_plies)
    return {"players": 2, "setup": setup, "first": first, "moves": moves}
