"""Hand-made positions for each rule of Pentamid Twist (docs/rules-pentamid-twist.md)."""

from __future__ import annotations

import pytest

from games.pentamid_twist import (
    IllegalMove,
    Move,
    NotationError,
    State,
    apply_move,
    finished,
    format_move,
    initial_state,
    legal_moves,
    parse_move,
    result,
)
from games.pentamid_twist.board import parse_square
from games.pentamid_twist.rules import Nests, Stack, describe

FULL: Nests = (5, 0, 0)
EMPTY_NESTS: Nests = (0, 0, 0)


def pos(
    picture: str,
    to_move: int = 0,
    reserve: tuple[Nests, Nests] = (FULL, FULL),
) -> State:
    """Six rows from rank 6 down, six cells each: `.` or a stack bottom first such as
    `S1/M2` (a small of the first player under a medium of the second)."""
    rows = [r.split() for r in picture.strip().splitlines()]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    board: list[Stack] = [()] * 36
    for i, row in enumerate(rows):
        rank = 5 - i
        for f, cell in enumerate(row):
            if cell != ".":
                board[rank * 6 + f] = tuple(
                    10 * (int(p[1]) - 1) + "SML".index(p[0]) + 1 for p in cell.split("/")
                )
    b = tuple(board)
    return State(b, reserve, to_move, frozenset({(b, to_move)}))


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


def reason(state: State, text: str) -> str:
    with pytest.raises(IllegalMove) as exc:
        apply_move(state, parse_move(text))
    return exc.value.reason


def cell(state: State, name: str) -> str:
    sq = parse_square(name)
    assert sq is not None
    rank, f = divmod(sq, 6)
    return describe(state).splitlines()[5 - rank].split()[f]


BLANK = "\n".join([". . . . . ."] * 6)


# Notation


def test_notation_round_trip_and_spelling() -> None:
    c3, c4 = parse_square("c3"), parse_square("c4")
    assert c3 is not None and c4 is not None
    assert parse_move("L@c3 ne+") == Move("drop", 3, -1, c3, "ne", 1)
    assert parse_move(" l@C3  NE+ ") == Move("drop", 3, -1, c3, "ne", 1)
    assert parse_move("c3-c4 sw--") == Move("step", 0, c3, c4, "sw", 2)
    assert parse_move("c3-c4,sw-") == Move("step", 0, c3, c4, "sw", -1)
    for text in ("L@c3 ne+", "S@a1 se-", "M@f6 nw++", "c3-c4 sw-", "f6-f5 ne++"):
        assert format_move(parse_move(text)) == text


@pytest.mark.parametrize(
    "text", ["", "L@c3", "X@c3 ne+", "L@g3 ne+", "L@c7 ne+", "c3-c4", "c3 ne+", "L@c3 nn+"]
)
def test_unreadable_moves(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


# Piece action: drops from nests


def test_nests_give_large_then_medium_then_small() -> None:
    s = initial_state()
    assert "no reserve nest has a small piece on top: you can drop L" in reason(s, "S@a1 ne+")
    assert {m.size for m in legal_moves(s)} == {3}
    s = play(s, "L@a1 ne+", "L@f1 nw+")
    assert s.reserve == ((4, 1, 0), (4, 1, 0))
    assert {m.size for m in legal_moves(s) if m.kind == "drop"} == {2, 3}
    s = play(s, "L@b1 ne+", "L@e1 nw+", "M@c1 ne+", "L@d1 nw+")
    assert s.reserve == ((3, 1, 1), (2, 3, 0))
    assert {m.size for m in legal_moves(s) if m.kind == "drop"} == {1, 2, 3}


def test_empty_reserve_cannot_drop() -> None:
    s = pos(BLANK.replace(". . . . . .", "S1 . . . . .", 1), reserve=(EMPTY_NESTS, FULL))
    assert "your reserve is empty" in reason(s, "L@c3 ne+")
    assert {m.kind for m in legal_moves(s)} == {"step"}


def test_drop_only_on_a_vacant_square() -> None:
    s = play(initial_state(), "L@a1 ne+")
    assert "a1 is not vacant" in reason(s, "L@a1 ne+")


# Piece action: steps and covering


def test_step_one_square_orthogonally_across_coasters() -> None:
    s = pos(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        . . S1 . . .
        . . . . . .
        . . . . . .
        """,
        reserve=(EMPTY_NESTS, FULL),
    )
    steps = {format_move(m).split()[0] for m in legal_moves(s)}
    assert steps == {"c3-c4", "c3-d3", "c3-c2", "c3-b3"}
    assert "one square horizontally or vertically" in reason(s, "c3-d4 ne+")
    assert "one square horizontally or vertically" in reason(s, "c3-c5 ne+")
    after = play(s, "c3-d3 nw+")  # c3 (sw) to d3 (se): across the coasters' edge
    assert cell(after, "d3") == "S1" and cell(after, "c3") == "."


GROUP = """
. . . . . .
. . . . . .
. . . . . .
. . . . . .
S2 M1 L1 S1/M2 . .
S1 M2 L2 S2 . .
"""


def test_covering_larger_over_smaller_only() -> None:
    s = pos(GROUP)
    after = play(s, "b2-a2 ne+")  # a medium covers a small of the opponent
    assert cell(after, "a2") == "S2/M1"
    assert "medium piece cannot cover the large piece on c2" in reason(s, "b2-c2 ne+")
    after = play(s, "c2-d2 ne+")  # a large covers a medium that covers a small
    assert cell(after, "d2") == "S1/M2/L1"
    assert "large piece cannot cover the large piece on c1" in reason(s, "c2-c1 ne+")


def test_medium_on_medium_and_small_on_small_are_illegal() -> None:
    s = pos(GROUP)
    assert "medium piece cannot cover the medium piece on b1" in reason(s, "b2-b1 ne+")
    s = pos(GROUP, to_move=1)
    assert "small piece cannot cover the small piece on a1" in reason(s, "a2-a1 ne+")


def test_covered_pieces_do_not_move_until_uncovered() -> None:
    s = pos(GROUP)
    assert "your piece on d2 is covered" in reason(s, "d2-e2 ne+")
    assert "not yours" in reason(s, "a2-a3 ne+")
    assert "there is no piece on e2" in reason(s, "e2-e3 ne+")
    s = play(s, "c2-d2 ne+")  # white large covers d2
    s = play(s, "a2-a3 ne+")
    s = play(s, "d2-e2 ne+")  # the large leaves: the medium of seat 1 may move again
    assert cell(s, "d2") == "S1/M2"
    assert any(format_move(m).startswith("d2-") for m in legal_moves(s))


# Board action


def test_rotations_carry_whole_stacks() -> None:
    s = pos(GROUP)
    after = play(s, "L@a3 sw+")  # clockwise, seen with rank 6 at the top
    assert describe(after).splitlines()[3:] == [
        "S1 S2 L1 . . .",
        "M2 M1 . S1/M2 . .",
        "L2 L1 . S2 . .",
    ]
    after = play(s, "L@a3 sw-")  # anticlockwise
    assert describe(after).splitlines()[3:] == [
        ". L1 L2 . . .",
        ". M1 M2 S1/M2 . .",
        "L1 S2 S1 S2 . .",
    ]
    after = play(s, "L@a3 sw++")  # half turn
    assert describe(after).splitlines()[3:] == [
        "L2 M2 S1 . . .",
        "L1 M1 S2 S1/M2 . .",
        ". . L1 S2 . .",
    ]
    after = play(s, "L@f6 se++")  # d2 goes to f2 with its whole stack
    assert cell(after, "f2") == "S1/M2" and cell(after, "f3") == "S2"


def test_every_turn_has_both_actions() -> None:
    with pytest.raises(NotationError):
        parse_move("L@a3")
    moves = legal_moves(initial_state())
    assert len(moves) == 36 * 12  # a large on any of 36 squares, 12 board actions


# End of the game


ROW = """
. . . . . .
. . . . . .
L1 L1 L1 L1 . .
. . . . . .
. . . . . .
. . . . . .
"""


def test_five_in_a_row_after_the_board_action_wins() -> None:
    after = play(pos(ROW), "L@e4 sw+")
    assert finished(after) and after.winner == 0 and result(after) == (1, 0)
    assert legal_moves(after) == []
    assert reason(after, "L@a1 sw+") == "the game is over"


def test_a_line_broken_by_the_board_action_does_not_count() -> None:
    after = play(pos(ROW), "L@e4 ne+")  # ne turns clockwise: d4 goes to d6, e4 to d5
    assert not finished(after)


MADE_BY_TURNING = """
. . . . . .
. . . . . {p}
{p} {p} {p} . . {p}
. . . . . .
. . . . . .
. . . . . .
"""


def test_a_line_made_only_by_the_board_action_wins() -> None:
    # ne clockwise: f4 goes to d4 and f5 to e4.
    s = pos(MADE_BY_TURNING.format(p="L1"))
    after = play(s, "L@a1 ne+")
    assert describe(after).splitlines()[2] == "L1 L1 L1 L1 L1 ."
    assert result(after) == (1, 0)


def test_the_line_wins_for_its_owner_even_if_the_mover_made_it() -> None:
    s = pos(MADE_BY_TURNING.format(p="L2"), to_move=0)
    after = play(s, "L@a1 ne+")
    assert finished(after) and result(after) == (0, 1)


def test_covered_pieces_do_not_count_uncovered_ones_do() -> None:
    covered = ROW.replace("L1 L1 L1 L1 . .", "L1 L1 S1/M2 L1 . .")
    assert not finished(play(pos(covered), "L@e4 sw+"))
    on_top = ROW.replace("L1 L1 L1 L1 . .", "L1 L1 S2/M1 L1 . .")
    assert result(play(pos(on_top), "L@e4 sw+")) == (1, 0)


def test_diagonal_line() -> None:
    s = pos(
        """
        . . . . . .
        . . . . L1 .
        . . . L1 . .
        . . L1 . . .
        . L1 . . . .
        . . . . . .
        """
    )
    after = play(s, "L@a1 se+")
    assert result(after) == (1, 0)
    anti = pos(
        """
        . . . . . .
        L2 . . . . .
        . L2 . . . .
        . . L2 . . .
        . . . L2 . .
        . . . . . .
        """,
        to_move=1,
    )
    assert result(play(anti, "L@e1 ne+")) == (0, 1)


def test_both_lines_at_once_is_a_draw() -> None:
    # A half turn of ne brings f6 to d4, e6 to e4 and f5 to d5 (e5 is its centre).
    s = pos(
        """
        . . . . L1 L1
        L2 L2 L2 . L2 L2
        L1 L1 L1 . . .
        . . . . . .
        . . . . . .
        . . . . . .
        """
    )
    after = play(s, "L@a1 ne++")
    assert describe(after).splitlines()[1:3] == ["L2 L2 L2 L2 L2 .", "L1 L1 L1 L1 L1 ."]
    assert finished(after) and after.winner is None and result(after) == (0, 0)
    assert legal_moves(after) == []


# No repeated game state


LONE = """
. . . . . S2
. . . . . .
. . . . . .
. . . . . .
. . . . . .
S1 . . . . .
"""


def test_no_repeating_an_earlier_game_state() -> None:
    s = pos(LONE, reserve=(EMPTY_NESTS, EMPTY_NESTS))
    s = play(s, "a1-a2 nw+", "f6-f5 se+", "a2-a1 nw+")
    # f5-f6 with a turn of an empty coaster would bring back the start, white to move.
    assert reason(s, "f5-f6 se+") == "this turn would repeat an earlier game state"
    legal = {format_move(m) for m in legal_moves(s)}
    assert not {"f5-f6 se+", "f5-f6 se-", "f5-f6 se++", "f5-f6 nw+"} & legal
    assert "f5-f6 ne+" in legal  # ne turns with the piece on it: a new state
    assert "f5-e5 se+" in legal


def test_a_drop_never_repeats() -> None:
    s = pos(LONE, reserve=(FULL, EMPTY_NESTS))
    s = play(s, "a1-a2 nw+", "f6-f5 se+", "L@c3 nw+", "f5-f6 se+")
    assert not finished(s)


def test_no_legal_turn_is_a_draw() -> None:
    s = pos(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        S1/M2 . . . . .
        """,
        to_move=1,
        reserve=(EMPTY_NESTS, FULL),
    )
    after = play(s, "L@f6 nw+")  # white's only piece is covered and its reserve is empty
    assert finished(after) and result(after) == (0, 0) and legal_moves(after) == []
