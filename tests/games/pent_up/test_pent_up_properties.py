"""Pent-Up: properties over random legal games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pent_up import Position, format_move, parse_move, replay, result
from games.pent_up.pieces import PIECES
from games.pent_up.playout import random_game, random_move

VARIANTS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "misere"), (4, "misere")]
games_st = st.tuples(st.sampled_from(VARIANTS), st.integers(0, 10**9))


def check_invariants(game: Position) -> None:
    # Conservation: every seat's tiles are in its hand or on the table, once.
    for seat in range(1, game.players + 1):
        placed = [t.piece for t in game.tiles if t.seat == seat]
        assert len(placed) == len(set(placed))
        assert sorted(placed + list(game.hands[seat - 1])) == sorted(PIECES)
    # Every tile lies flat on the table or on at least two tiles of the level below.
    below: dict[tuple[int, int], tuple[int, int]] = {}  # square -> (level, tile)
    for index, tile in enumerate(game.tiles):
        assert len(set(tile.cells)) == 5
        under = [below.get(c) for c in tile.cells]
        if tile.level == 1:
            assert all(u is None for u in under)
        else:
            assert all(u is not None and u[0] == tile.level - 1 for u in under)
            assert len({u[1] for u in under if u is not None}) >= 2
        for c in tile.cells:
            below[c] = (tile.level, index)
    assert {c: lv for c, (lv, _) in below.items()} == game.height


@settings(max_examples=8, deadline=None)
@given(games_st)
def test_random_games_keep_the_invariants_and_replay(case: tuple[tuple[int, str], int]) -> None:
    (players, variant), seed = case
    rng = random.Random(seed)
    game = Position.start(players, variant)
    moves: list[str] = []
    while not game.finished:
        if len(moves) % 8 == 3:
            # every generated legal move applies, and its notation reads back
            legal = game.legal_moves()
            assert legal
            for move in rng.sample(legal, min(8, len(legal))):
                assert parse_move(format_move(move)) == move
                trial = Position.from_state(game.state())
                assert trial.apply(move).level == move.level
            move = rng.choice(legal)
        else:
            move = random_move(game, rng)
        assert parse_move(format_move(move)) == move
        game.apply(move)
        moves.append(format_move(move))
        check_invariants(game)
    assert game.finished and len(moves) == 12 * players
    assert game.legal_moves() == []
    record = {"players": players, "variant": variant, "moves": moves}
    first = replay(record)
    assert first.ok and first.finished and first.to_move is None
    assert first.to_dict() == replay(record).to_dict()
    assert first.state == game.state()
    assert first.out == list(result(game.state()).out)
    assert first.winners


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_no_level_is_skipped_by_a_random_move(seed: int) -> None:
    """The level a random move lands on is the highest its tile can reach."""
    rng = random.Random(seed)
    game = Position.start(2)
    for _ in range(rng.randrange(2, 20)):
        game.apply(random_move(game, rng))
    piece = rng.choice(sorted(game.hands[game.seat - 1]))
    level, spots = game.placements(piece)
    assert spots
    assert level == max(
        (Position.from_state(game.state()).level_of(_cells(piece, s)) for s in spots),
        key=lambda v: v if isinstance(v, int) else 0,
    )


def _cells(piece: str, spot: tuple[bool, int, int, int]) -> tuple[tuple[int, int], ...]:
    from games.pent_up.pieces import SHAPES

    flip, turns, x, y = spot
    return tuple((x + a, y + b) for a, b in SHAPES[(piece, flip, turns)])


def test_playouts_are_deterministic() -> None:
    assert random_game(3, seed=11) == random_game(3, seed=11)
