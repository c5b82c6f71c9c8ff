"""The pieces-out notation of the one result path (services/result_path.py), for every
table size: one number per seat, run together when each has one digit (`31`, `3120`,
`31200`: a key per seat and Enter), or separated; `u` marks the turn ended."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.errors import ServiceError
from tournaments.results.services.result_path import pieces_out


@st.composite
def typed_results(draw: st.DrawFn) -> tuple[list[int], int, int, str, bool]:
    seats = draw(st.integers(min_value=2, max_value=5))
    target = draw(st.integers(min_value=1, max_value=12))
    out = draw(st.lists(st.integers(0, target), min_size=seats, max_size=seats))
    separator = draw(st.sampled_from(["", " ", ":", "-", ",", " : "]))
    if separator == "" and target > 9:
        separator = " "  # run together only when every number has one digit
    unfinished = draw(st.booleans())
    text = separator.join(map(str, out)) + (" u" if unfinished else "")
    return out, seats, target, text, not unfinished


@given(typed_results())
def test_every_table_size_reads_back_what_was_typed(
    case: tuple[list[int], int, int, str, bool],
) -> None:
    out, seats, target, text, finished = case
    assert pieces_out(text, seats, target) == (out, finished)


def test_a_five_player_game_is_five_digits_and_a_2_vs_2_game_four() -> None:
    assert pieces_out("31200", 5, 3) == ([3, 1, 2, 0, 0], True)
    assert pieces_out("3120", 4, 5) == ([3, 1, 2, 0], True)


@pytest.mark.parametrize("text", ["", "3", "312", "3 1 x", "٣١"])
def test_a_wrong_count_or_a_stray_character_is_refused_naming_the_field(text: str) -> None:
    with pytest.raises(ServiceError) as refused:
        pieces_out(text, 2, 3)
    assert refused.value.field == "out"
