"""The book's dropped score and time weighting (section 21), worked examples and properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import (
    DEFAULT_SETTINGS,
    ScoringSettings,
    dropped_scores,
    match_scores,
    round_scores,
)


@pytest.mark.parametrize(
    ("out", "expected"),
    [([3, 3], [3, 3]), ([3, 1], [5, 1]), ([2, 3], [2, 4]), ([3, 0], [6, 0])],
)
def test_two_player_results_are_the_books(out: list[int], expected: list[float]) -> None:
    # Section 21: "the possible results in a two-player become 3:3, 4:2, 5:1 or 6:0".
    assert dropped_scores(out) == expected


def test_three_player_game_generalises_with_the_mean_over_opponents() -> None:
    # A: 3 + ((3-1) + (3-2)) / 2 = 4.5; B: 1 + (0 + 1) / 2 = 1.5; C: 2 + (0 + 2) / 2 = 3.
    assert dropped_scores([3, 1, 2]) == [4.5, 1.5, 3.0]
    assert sum(dropped_scores([3, 1, 2])) == 9


def test_teams_score_per_team_with_five_pieces() -> None:
    # Seats 0 and 2 against 1 and 3; the team with 5 pieces out wins (section 3).
    scores = dropped_scores([3, 1, 2, 1], target=5, teams=[[0, 2], [1, 3]])
    assert scores == [8.0, 2.0, 8.0, 2.0]


def test_unfinished_game_counts_pieces_out_so_far() -> None:
    # The turn ended at 2:1 – still zero-sum: 2 + 2 = 4 and 1 + 1 = 2.
    assert dropped_scores([2, 1]) == [4, 2]


def test_time_weighting_makes_even_turns_equal() -> None:
    # "multiply the scores of the three player games by 3 and those of the two players by 2"
    assert DEFAULT_SETTINGS.even_round_score(2) == DEFAULT_SETTINGS.even_round_score(3) == 18
    assert round_scores([[3, 1], [2, 3], [3, 3]]) == [20.0, 16.0]
    assert round_scores([[3, 1, 2], [0, 3, 3]]) == [13.5, 18.0, 22.5]


def test_byes_and_absences_follow_settings() -> None:
    assert DEFAULT_SETTINGS.bye_round_score() == 18
    assert DEFAULT_SETTINGS.absence_score == 0
    custom = ScoringSettings(bye_score=12.0, factors=((2, 1.0), (3, 1.5)))
    assert custom.bye_round_score() == 12
    assert round_scores([[3, 0]], custom) == [6.0, 0.0]


def test_team_tables_need_an_explicit_factor() -> None:
    with pytest.raises(ValueError):
        round_scores([[3, 1, 2, 1]], teams=[[0, 2], [1, 3]])
    assert round_scores([[3, 1, 2, 1]], teams=[[0, 2], [1, 3]], factor=1.0)[0] == 8.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        dropped_scores([4, 1])
    with pytest.raises(ValueError):
        dropped_scores([3])
    with pytest.raises(ValueError):
        match_scores([[3, 1], [3, 1, 0]])
    with pytest.raises(ValueError):
        DEFAULT_SETTINGS.factor_for(5)


@given(st.integers(2, 5).flatmap(lambda n: st.lists(st.integers(0, 3), min_size=n, max_size=n)))
def test_dropped_score_is_zero_sum(out: list[int]) -> None:
    assert sum(dropped_scores(out)) == pytest.approx(3 * len(out))


@given(st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=1, max_size=4))
def test_round_score_sums_to_an_even_turn_per_game(games: list[list[int]]) -> None:
    total = sum(round_scores(games))
    assert total == pytest.approx(3 * 3 * 3 * len(games))


@given(st.lists(st.integers(0, 5), min_size=4, max_size=4))
def test_team_score_is_zero_sum(out: list[int]) -> None:
    teams = [[0, 2], [1, 3]]
    if out[0] + out[2] > 5 or out[1] + out[3] > 5:
        return
    scores = dropped_scores(out, target=5, teams=teams)
    assert scores[0] + scores[1] == pytest.approx(10)
