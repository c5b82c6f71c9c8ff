"""PentaCosmos: properties over random legal games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pentacosmos import GEMS, SPACES, Position, format_move, parse_move, replay, result
from games.pentacosmos.playout import greedy_move, random_game, random_move

VARIANTS = [
    (2, "standard", 30),
    (3, "standard", 30),
    (4, "standard", 25),
    (4, "teams", 30),
    (2, "coin", 30),
    (4, "teams+coin", 25),
]
games_st = st.tuples(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.booleans())


def check_invariants(game: Position) -> None:
    # Conservation: every placed token is on the board, and no token is lost or made.
    for seat in range(1, game.players + 1):
        assert game.board.count(seat) == game.placed[seat - 1] <= game.tokens
    assert game.board[0] == 0 and len(game.board) == SPACES + 1
    # Gem points: what is captured plus what is left is always 230.
    captured = sum(g.value for g, s in zip(GEMS, game.gems, strict=True) if s)
    left = sum(g.value for g, s in zip(GEMS, game.gems, strict=True) if not s)
    assert captured + left == 230
    # No gem on the board is surrounded by one side.
    for k, g in enumerate(GEMS):
        if not game.gems[k]:
            sides = {game.side(game.board[s]) if game.board[s] else 0 for s in g.ring}
            assert len(sides) > 1 or sides == {0}


@settings(max_examples=20, deadline=None)
@given(games_st)
def test_random_games_keep_the_invariants_and_replay(
    case: tuple[tuple[int, str, int], int, bool],
) -> None:
    (players, variant, tokens), seed, greedy = case
    rng = random.Random(seed)
    game = Position.start(players, variant, tokens)
    moves: list[str] = []
    plies = players * tokens + 120
    while not game.finished and len(moves) < plies:
        if len(moves) % 25 == 7:
            legal = game.legal_moves()
            assert legal
            for move in rng.sample(legal, min(10, len(legal))):
                assert parse_move(format_move(move)) == move
                Position.from_state(game.state()).apply(move)
            move = rng.choice(legal)
        else:
            move = greedy_move(game, rng) if greedy else random_move(game, rng)
        assert parse_move(format_move(move)) == move
        game.apply(move)
        moves.append(format_move(move))
        check_invariants(game)
    record = {"players": players, "variant": variant, "tokens": tokens, "moves": moves}
    first = replay(record)
    assert first.ok and first.plies == len(moves)
    assert first.to_dict() == replay(record).to_dict()
    assert first.state == game.state()
    assert first.out == list(result(game.state()).out)
    if variant.startswith("teams"):
        assert first.out[0] == first.out[2] and first.out[1] == first.out[3]


def test_playouts_are_deterministic() -> None:
    assert random_game(3, seed=4, max_plies=150) == random_game(3, seed=4, max_plies=150)
