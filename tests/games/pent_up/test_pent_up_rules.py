"""Pent-Up: one hand-made position per rule, the result, the notation."""

from __future__ import annotations

import pytest

from games.pent_up import (
    IllegalMove,
    Move,
    NotationError,
    Position,
    State,
    Tile,
    format_move,
    parse_move,
    replay,
    result,
)
from games.pent_up.pieces import ORIENTATIONS, SHAPES


def play(players: int, *moves: str, variant: str = "standard") -> Position:
    game = Position.start(players, variant)
    for text in moves:
        game.apply(parse_move(text))
    return game


def reason(game: Position, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        game.apply(parse_move(text))
    return info.value.reason


# -- the pieces -------------------------------------------------------------------------


def test_twelve_pentominoes_with_both_sides_give_63_shapes() -> None:
    assert len(ORIENTATIONS) == 12
    assert sum(len(v) for v in ORIENTATIONS.values()) == 63
    assert all(len(set(shape)) == 5 for shape in SHAPES.values())


def test_the_reverse_side_is_the_mirror_image() -> None:
    front = SHAPES[("N", False, 0)]
    back = SHAPES[("N", True, 0)]
    width = max(x for x, _ in front)
    assert tuple(sorted((width - x, y) for x, y in front)) == back
    assert front != back


# -- placing ----------------------------------------------------------------------------


def test_the_first_tile_may_go_anywhere() -> None:
    game = play(2, "X@100,-50")
    assert game.tiles[0].level == 1 and (101, -49) in game.tiles[0].cells


def test_a_tile_on_the_table_must_touch_a_tile_along_an_edge() -> None:
    game = play(2, "I@0,0")
    assert "next to a tile" in reason(game, "I@0,2")
    # touching only at a corner is not "adjacent"
    assert "next to a tile" in reason(game, "I@5,1")
    game.apply(parse_move("I@0,1"))  # along the long edge
    assert game.tiles[1].level == 1


def test_a_tile_must_lie_flat() -> None:
    game = play(2, "I@0,0")
    assert "would not lie flat" in reason(game, "I@2,0")


def test_a_tile_atop_others_needs_two_tiles_under_it() -> None:
    game = play(2, "I@0,0")
    assert "at least 2 tiles, not 1" in reason(game, "I@0,0")


def test_the_chosen_tile_goes_on_the_highest_level_it_can_reach() -> None:
    game = play(2, "I@0,0", "I@0,1")  # a 5x2 block of two tiles
    # the P fits across both tiles, so it may not stay on the table
    assert "can reach level 2" in reason(game, "P@-2,0")
    tile = game.apply(parse_move("P1@1,0"))
    assert tile.level == 2 and tile.seat == 1
    # the X cannot span the two rows, so the table is its highest level
    game2 = play(2, "I@0,0", "I@0,1")
    assert game2.highest_level("X") == 1
    game2.apply(parse_move("X@-3,-1^1"))


def test_a_stated_level_must_match() -> None:
    game = play(2, "I@0,0", "I@0,1")
    assert "lies on level 2, not 1" in reason(game, "P1@1,0^1")


def test_each_tile_is_placed_once() -> None:
    game = play(2, "I@0,0", "I@0,1", "X@-3,-1")
    assert "black has already placed the I" in reason(game, "I@-1,-5")


def test_the_game_ends_when_all_tiles_are_placed() -> None:
    from games.pent_up.playout import random_game

    moves = random_game(2, seed=5)
    assert len(moves) == 24
    res = replay({"players": 2, "moves": [*moves, "X@0,0"]})
    assert not res.ok and res.error is not None
    assert res.error.ply == 25 and "game is over" in res.error.reason
    assert res.plies == 24 and res.finished and res.to_move is None


def test_turn_order_with_three_and_four_players() -> None:
    game = play(3, "I@0,0", "I@0,1", "I@0,-1")
    assert [t.seat for t in game.tiles] == [1, 2, 3]
    assert game.seat == 1
    assert play(4).state().to_move == 1


# -- the result -------------------------------------------------------------------------


def _state(players: int, per_seat: list[list[int]], variant: str = "standard") -> State:
    """A finished position with per_seat[s][l] tiles of seat s+1 on level l+1."""
    tiles = tuple(
        Tile(seat + 1, "X", level + 1, ())
        for seat, counts in enumerate(per_seat)
        for level, n in enumerate(counts)
        for _ in range(n)
    )
    return State(players, variant, tiles, tuple(() for _ in per_seat), None, len(tiles), True)


def test_most_tiles_on_the_highest_level_wins() -> None:
    res = result(_state(2, [[10, 2], [9, 3]]))
    assert res.winners == (2,)
    assert res.levels == ((10, 2), (9, 3))
    assert res.out == (210, 309)


def test_ties_are_broken_level_by_level_downwards() -> None:
    res = result(_state(2, [[7, 4, 1], [8, 3, 1]]))
    assert res.winners == (1,)
    assert result(_state(2, [[7, 4, 1], [7, 4, 1]])).winners == (1, 2)


def test_misere_most_tiles_on_the_lowest_level_wins() -> None:
    res = result(_state(2, [[9, 3], [8, 3, 1]], "misere"))
    assert res.winners == (1,)
    # tie on level 1: then level 2, upwards
    assert result(_state(2, [[8, 4], [8, 3, 1]], "misere")).winners == (1,)


def test_two_versus_two_the_pair_of_the_best_player_wins() -> None:
    res = result(_state(4, [[10, 2], [9, 3], [12], [12]]))
    # seat 2 is the best single player, so seats 2 and 4 win
    assert res.winners == (2, 4)
    assert res.out[1] == res.out[3] > res.out[0] == res.out[2]


def test_three_players() -> None:
    res = result(_state(3, [[10, 2], [9, 2, 1], [11, 1]]))
    assert res.winners == (2,)
    assert res.out[0] > res.out[2]


# -- notation ---------------------------------------------------------------------------


def test_notation_reads_and_writes() -> None:
    assert parse_move("P'3@2,-1^2") == Move("P", True, 3, 2, -1, 2)
    assert parse_move(" p @ 2 , -1 ") == Move("P", False, 0, 2, -1, None)
    assert format_move(Move("I", False, 0, 0, 0, 1)) == "I@0,0^1"
    assert format_move(Move("F", True, 2, -3, 4, None)) == "F'2@-3,4"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("Q@0,0", "not a pentomino"),
        ("P5@0,0", "quarter turns"),
        ("P@0", "not a placement"),
        ("P@0,0^0", "levels count from 1"),
    ],
)
def test_unreadable_moves(text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert words in info.value.reason
