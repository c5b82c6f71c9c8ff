"""Random legal games, for tests and the demo."""

from __future__ import annotations

import random

from .notation import Move, format_move
from .pieces import PIECES
from .rules import Position


def random_move(game: Position, rng: random.Random) -> Move:
    """A random legal move: a random tile of the seat to move, then a random placement
    of it on the highest level it can reach."""
    hand = [p for p in PIECES if p in game.hands[game.seat - 1]]
    piece = rng.choice(hand)
    level, spots = game.placements(piece)
    flip, turns, x, y = rng.choice(spots)
    return Move(piece, flip, turns, x, y, level)


def random_game(players: int = 2, variant: str = "standard", seed: int = 0) -> list[str]:
    """The moves of one random legal game, to the end."""
    rng = random.Random(seed)
    game = Position.start(players, variant)
    moves: list[str] = []
    while not game.finished:
        move = random_move(game, rng)
        game.apply(move)
        moves.append(format_move(move))
    return moves
