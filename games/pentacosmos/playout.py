"""Random legal games, for tests and the demo."""

from __future__ import annotations

import random

from .board import ADJ, GEMS, GEMS_AT, SPACES
from .notation import PASS, Move, format_move
from .rules import Position


def random_path(game: Position, rng: random.Random, tries: int = 20) -> tuple[int, ...] | None:
    """A random self-avoiding walk from one of the mover's tokens through tokens to a
    free space, or None when none was found in `tries` attempts."""
    board = game.board
    own = [s for s in range(1, SPACES + 1) if board[s] == game.seat]
    for _ in range(tries):
        path = [rng.choice(own)]
        while True:
            nxt = [t for t in ADJ[path[-1]] if t not in path]
            free = [t for t in nxt if board[t] == 0]
            full = [t for t in nxt if board[t] != 0]
            if free and (not full or rng.random() < 0.6):
                return (*path, rng.choice(free))
            if not full:
                break
            path.append(rng.choice(full))
    return None


def random_move(game: Position, rng: random.Random) -> Move:
    if game.phase == 1:
        return Move("place", (rng.choice([s for s in range(1, SPACES + 1) if not game.board[s]]),))
    if game.awaiting_coin:
        return Move("coin", (), rng.choice((1, 2)))
    path = random_path(game, rng)
    if path is not None:
        return Move("path", path)
    moves = game.legal_moves()
    return rng.choice(moves) if moves else PASS


def _gain(game: Position, path: tuple[int, ...]) -> int:
    """Points the mover's side would capture with a phase-II path (board restored)."""
    board = game.board
    before = [board[s] for s in path]
    for i in range(len(path) - 1, 0, -1):
        board[path[i]] = before[i - 1]
    board[path[0]] = 0
    side = game.side(game.seat)
    gain = 0
    for k in {k for s in path for k in GEMS_AT[s]}:
        ring = GEMS[k].ring
        if not game.gems[k] and all(board[s] and game.side(board[s]) == side for s in ring):
            gain += GEMS[k].value
    for s, v in zip(path, before, strict=True):
        board[s] = v
    return gain


def greedy_move(game: Position, rng: random.Random) -> Move:
    """A legal move that goes for gems: in phase I a free space around a gem that no
    other side blocks, in phase II a capturing move when one of at most 2 tokens exists."""
    if game.phase == 1:
        side = game.side(game.seat)
        best: list[int] = []
        score = -1.0
        for k, gem in enumerate(GEMS):
            if game.gems[k]:
                continue
            seats = [game.board[s] for s in gem.ring]
            if any(x and game.side(x) != side for x in seats):
                continue
            filled = sum(1 for x in seats if x) / len(seats)
            free = [s for s in gem.ring if not game.board[s]]
            if filled > score:
                best, score = free, filled
            elif filled == score:
                best += free
        if best and rng.random() < 0.9:
            return Move("place", (rng.choice(best),))
        return random_move(game, rng)
    if game.awaiting_coin:
        return random_move(game, rng)
    gains = [(_gain(game, p), p) for p in game.paths(2)]
    top = max((g for g, _ in gains), default=0)
    if top > 0:
        return Move("path", rng.choice([p for g, p in gains if g == top]))
    return random_move(game, rng)


def random_game(
    players: int = 2,
    variant: str = "standard",
    seed: int = 0,
    max_plies: int = 300,
    tokens: int = 30,
    greedy: bool = False,
) -> list[str]:
    """The moves of one random legal game (stops after max_plies if still running);
    `greedy` players go for gems, so their games usually end."""
    rng = random.Random(seed)
    game = Position.start(players, variant, tokens)
    moves: list[str] = []
    while not game.finished and len(moves) < max_plies:
        move = greedy_move(game, rng) if greedy else random_move(game, rng)
        game.apply(move)
        moves.append(format_move(move))
    return moves
