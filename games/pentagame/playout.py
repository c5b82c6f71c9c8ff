"""Random legal games, for tests and the benchmark."""

from __future__ import annotations

import random

from .board import OUT
from .movegen import code_to_move, legal_codes
from .notation import PASS, Move, format_move
from .rules import Position


def complete(game: Position, move: Move, rng: random.Random) -> Move:
    """Add the `:` and `z` parts a generated move needs, choosing stops at random."""
    if move.kind == "pass":
        return move
    r = game.rules
    empty = [s for s in range(100) if game.cnt[s] == 0 and s != move.to]
    black = None
    if move.kind == "x" and game.cell[move.to] < 200:
        black = rng.choice(empty)
        empty.remove(black)
    own = [
        p
        for p in r.seat_pieces[game.seat]
        if game.pos[p] == move.frm and (move.piece is None or r.colour[p] == move.piece)
    ]
    out = move.kind == "z" or r.goal[own[0]] == move.to
    grey = grey_from = None
    if out:
        grey = rng.choice(empty)
        taken_grey = move.kind == "x" and game.cell[move.to] >= 200
        if OUT not in game.grey and not taken_grey:
            grey_from = rng.choice(game.grey)
    return Move(
        move.kind, move.frm, move.to, move.piece, move.target, move.seat, black, grey, grey_from
    )


def random_game(
    players: int, variant: str = "standard", seed: int = 0, max_plies: int = 300
) -> list[str]:
    """The moves of one random legal game (stops after max_plies if still running)."""
    rng = random.Random(seed)
    game = Position.start(players, variant)
    moves: list[str] = []
    while not game.finished and len(moves) < max_plies:
        codes = legal_codes(game)
        move = PASS if not codes else complete(game, code_to_move(game, rng.choice(codes)), rng)
        game.apply(move)
        moves.append(format_move(move))
    return moves
