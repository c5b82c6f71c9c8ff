"""A bracket names a piece that is on that stop; otherwise the move is illegal, reported
with its ply and the reason. `standard` with 5 players is the five-player game."""

from __future__ import annotations

import pytest

from games.pentagame.replay import replay
from games.pentagame.rules import initial_state, rules_for


@pytest.mark.parametrize(
    ("moves", "ply", "reason"),
    [
        # The target stop is empty: the bracket names nothing there.
        (["W-W3r[b]"], 1, "`[b]` after W3r names no piece there: it is empty (write W-W3r)"),
        (["W-W3r", "B-B3w[g]"], 2, "`[g]` after B3g names no piece there: it is empty"),
        # A swap sign with a bracket on an empty stop: the bracket is the first mistake.
        (["W-W3r", "BsB1W[b]"], 2, "`[b]` after B1W names no piece there: it is empty"),
        # A black block is no piece.
        (["Wxr[b]:G2W"], 1, "names no piece there: it holds a black block (write Wxr:G2W)"),
        # The starting stop has no piece of that colour of the mover's.
        (["W[b]-W3r"], 1, "you have no blue piece on W"),
    ],
)
def test_a_bracket_that_names_no_piece_on_its_stop_is_illegal(
    moves: list[str], ply: int, reason: str
) -> None:
    result = replay({"players": 2, "variant": "standard", "moves": moves})
    assert not result.ok
    assert result.error is not None
    assert result.error.ply == ply
    assert result.error.move == moves[-1]
    assert reason in result.error.reason
    assert result.plies == ply - 1  # nothing of the illegal move was applied


def test_a_bracket_naming_the_piece_that_is_there_is_accepted() -> None:
    # At the start W holds each seat's white piece: [w] names the mover's.
    result = replay({"players": 2, "variant": "standard", "moves": ["W[w]-W3r"]})
    assert result.ok, result.error


def test_standard_with_five_players_is_the_five_player_game_and_says_so() -> None:
    assert rules_for(5, "standard") == rules_for(5, "five")
    state = initial_state(5, "standard")
    assert state.variant == "five"
    assert state.pieces == tuple(s for s in range(5) for _ in range(4))
    assert rules_for(5, "inside-out").variant == "five+inside-out"
    assert rules_for(4, "standard").variant == "standard"
