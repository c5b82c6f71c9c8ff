"""Hand-made positions for each rule of Pantarei (docs/rules-pantarei.md)."""

from __future__ import annotations

import pytest

from games.pantarei import (
    PASS,
    IllegalMove,
    Move,
    NotationError,
    State,
    apply_move,
    finished,
    format_move,
    legal_moves,
    parse_move,
    result,
)
from games.pantarei.notation import SLOTS
from games.pantarei.rules import describe


def pos(picture: str, first: str = "W", to_move: int = 0, last_swap: bool = False) -> State:
    """Slots from the head, stacks bottom first joined by `+`, `.` for an empty slot;
    the slots not named are empty."""
    slots = [() if s == "." else tuple(s.split("+")) for s in picture.split()]
    slots += [()] * (SLOTS - len(slots))
    return State(tuple(slots), first, to_move, last_swap)


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


def reason(state: State, text: str) -> str:
    with pytest.raises(IllegalMove) as exc:
        apply_move(state, parse_move(text))
    return exc.value.reason


def texts(state: State) -> list[str]:
    return [format_move(m) for m in legal_moves(state)]


# Notation


def test_notation_round_trip_and_spelling() -> None:
    assert parse_move("7-10") == Move("move", 7, 10, 1)
    assert parse_move(" 7 = 10 ") == Move("move", 7, 10, 2)
    assert parse_move("12x7") == Move("swap", 7, 12)
    assert parse_move("PASS") == PASS
    for text in ("7-10", "7=10", "7x12", "pass", "19-1"):
        assert format_move(parse_move(text)) == text


@pytest.mark.parametrize("text", ["", "7", "7+10", "a-b", "7-10-11", "0-1", "19-20", "7 10"])
def test_unreadable_moves(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


# Moving by face value


def test_a_scale_moves_exactly_its_value_either_way() -> None:
    s = pos("B1 B1 B1 W2 B1 B1 B1")
    assert texts(s) == ["4-2", "4-6"]
    after = play(s, "4-6")
    assert describe(after).split()[:7] == ["B1", "B1", "B1", ".", "B1", "B1+W2", "B1"]
    assert "moves exactly 2 stacks" in reason(s, "4-5")
    assert "it can reach slot 2 or 6" in reason(s, "4-7")


def test_empty_slots_are_not_counted() -> None:
    s = pos("W3 . . B1 . B1 B1 B1")
    assert texts(s) == ["1-7"]


def test_stacks_count_as_one_whatever_their_height() -> None:
    s = pos("W2 B1+B2+B3 B1")
    assert texts(s) == ["1-3"]


def test_a_scale_cannot_pass_the_head_or_the_tail() -> None:
    s = pos("B1 W3 B1 B1 B1 B1")
    assert texts(s) == ["2-5"]
    s = pos("B1 W3 B1 B1")
    assert texts(s) == ["pass"]
    assert "passes over the head or the tail" in reason(s, "2-4")


def test_moving_onto_its_own_stack_is_impossible() -> None:
    s = pos("B1 W1 B1")
    assert "not to slot 2" in reason(s, "2-2")


def test_top_scale_with_the_one_under_it_whatever_its_colour() -> None:
    s = pos("W1 B2+W1+B3+W1 B1")
    assert set(texts(s)) == {"1-2", "1x2", "2-1", "2-3", "2=1", "2=3"}
    after = play(s, "2=3")
    assert after.slots[1] == ("B2", "W1") and after.slots[2] == ("B1", "B3", "W1")
    assert after.to_move == 1


def test_two_scales_need_a_stack() -> None:
    s = pos("W1 B1")
    assert "single scale" in reason(s, "1=2")


def test_only_your_uncovered_scales_move() -> None:
    s = pos("W1+B1 W1 B1")
    assert texts(s) == ["2-1", "2-3"]
    assert "you play white" in reason(s, "1-2")
    assert "slot 5 is empty" in reason(s, "5-6")


def test_black_moves_black() -> None:
    s = pos("W1 B1 W1", first="B")
    assert texts(s) == ["2-1", "2-3"]
    s = pos("W1 B1 W1", first="W", to_move=1)
    assert texts(s) == ["2-1", "2-3"]


def test_the_neutral_scale_is_carried_but_never_moves_alone() -> None:
    s = pos("W1 N B1")
    assert "cannot move by itself" in reason(s, "2-1")
    s = play(s, "1-2")  # white lands on the neutral scale
    s = play(s, "3-2")  # black covers both
    assert describe(s).split()[:3] == [".", "N+W1+B1", "."]
    s = pos("N+W1 B1 B1")
    s = play(s, "1=2")  # white carries the neutral scale along
    assert s.slots[:2] == ((), ("B1", "N", "W1"))
    s = pos("W1+N B1 W1")
    assert texts(s) == ["3-2"]  # nobody controls a stack topped by the neutral scale


# Swaps


def test_swap_two_of_your_stacks_whole() -> None:
    s = pos("W1 B1 B3+W2+B1+W3 B1 W2")
    assert "1x3" in texts(s) and "1x5" in texts(s) and "3x5" in texts(s)
    after = play(s, "3x1")
    assert after.slots[0] == ("B3", "W2", "B1", "W3") and after.slots[2] == ("W1",)
    assert after.last_swap


def test_no_swap_with_a_stack_you_do_not_control() -> None:
    s = pos("W1 B1 W2+B1 N")
    assert "controlled by black" in reason(s, "1x3")
    assert "controlled by neutral" in reason(s, "1x4")
    assert "slot 6 is empty" in reason(s, "1x6")


def test_no_swap_right_after_the_opponent_swapped() -> None:
    s = pos("W1 B1 W1 B1 W1 B1 W1 B1")
    s = play(s, "1x3")
    assert "2x4" not in texts(s)
    assert "forbidden right after the opponent swapped" in reason(s, "2x4")
    s = play(s, "2-3")
    assert "1x5" in texts(s)  # the opponent moved: swapping is allowed again
    s = play(s, "1x5", "4-5", "1x7")  # a swap is fine after one's own swap two plies back
    assert s.last_swap


def test_forced_pass() -> None:
    s = pos("B1 W3 B2+B1 N")  # white's only 3 would run past the head or the tail
    assert legal_moves(s) == [PASS]
    after = play(s, "pass")
    assert after.to_move == 1 and not finished(after) and after.slots == s.slots
    assert "only when you can neither move nor swap" in reason(pos("B1 W1 B1"), "pass")


def test_pass_when_the_only_action_is_a_forbidden_swap() -> None:
    # Both white 3s are stuck in a snake of four stacks; only the swap 2x3 remains.
    assert texts(pos("B1 W3 W3 B1", to_move=0)) == ["2x3"]
    s = pos("B1 W3 W3 B1", to_move=0, last_swap=True)
    assert legal_moves(s) == [PASS]
    s = play(s, "pass")
    assert "1x4" in texts(s)  # black may swap: white's last turn was a pass, not a swap
    s = play(s, "1x4")
    assert legal_moves(s) == [PASS]
    s = play(s, "pass", "1-2")  # black covers the white 3 on slot 2
    assert texts(s) == ["pass"]  # one white stack left: nothing to swap it with


def test_deadlock_is_a_draw() -> None:
    # Only possible in hand-made positions: each side's single 3 is stuck in the middle.
    s = pos("N W3 B3 N")
    assert finished(s)
    assert legal_moves(s) == []
    assert result(s) == (0, 0)
    assert reason(s, "pass") == "the game is over"


# End of the game


def test_seventh_scale_wins() -> None:
    s = pos("W1 B1+W1+B1+W1+B1+W1 B1", to_move=0)
    after = play(s, "1-2")
    assert finished(after) and after.winner == 0 and result(after) == (1, 0)
    assert legal_moves(after) == []
    assert reason(after, "3-2") == "the game is over"


def test_two_scales_onto_six_win_too() -> None:
    s = pos("B1 B1+W1+B1+W1+B1+W1 W1+B1", first="W", to_move=1)
    after = play(s, "3=2")
    assert len(after.slots[1]) == 8 and result(after) == (0, 1)
