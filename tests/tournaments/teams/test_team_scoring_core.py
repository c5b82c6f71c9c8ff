"""2 vs 2 team scoring by hand: the team's dropped score past the target, and a team
match of two games in the standings core."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.dropped import dropped_scores
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

TEAMS = [[0, 2], [1, 3]]


def test_a_team_that_reaches_six_by_playing_out_the_round_scores_without_error() -> None:
    # Seats 1+3 bring out 3 + 3 = 6, seats 2+4 1 + 1 = 2: 6 + (5 - 2) = 9 against
    # 2 + (5 - 6) = 1, summing to 2 * 5 = 10 as every game does.
    assert dropped_scores([3, 1, 3, 1], 5, teams=TEAMS) == [9.0, 1.0, 9.0, 1.0]


def test_six_against_five_is_a_one_piece_win() -> None:
    # Both teams reached 5 in the last round; the one with 6 wins by one piece: 6 : 4.
    assert dropped_scores([3, 2, 3, 3], 5, teams=TEAMS) == [6.0, 4.0, 6.0, 4.0]


@pytest.mark.parametrize("loser", [[0, 0], [1, 0]])
def test_the_most_a_team_game_gives_is_ten_to_nothing(loser: list[int]) -> None:
    # 6 : 0 would be 11 : -1 and 6 : 1 is 10 : 0; both are kept to the book's range
    # (a 2-player game gives at most 6 : 0 = 2 * target : 0).
    out = [3, loser[0], 3, loser[1]]
    assert dropped_scores(out, 5, teams=TEAMS) == [10.0, 0.0, 10.0, 0.0]


def test_a_side_cannot_bring_out_more_than_the_deciding_round_allows() -> None:
    # A team had at most 4 before the deciding round and two seats move in it: 6 at most.
    with pytest.raises(ValueError, match=r"0\.\.6"):
        dropped_scores([4, 0, 3, 0], 5, teams=TEAMS)
    # One player alone still stops at the target.
    with pytest.raises(ValueError):
        dropped_scores([4, 1])


@given(st.lists(st.integers(0, 5), min_size=4, max_size=4))
def test_every_possible_team_result_is_zero_sum_within_zero_and_ten(out: list[int]) -> None:
    if out[0] + out[2] > 6 or out[1] + out[3] > 6:
        return
    scores = dropped_scores(out, 5, teams=TEAMS)
    assert scores[0] + scores[1] == pytest.approx(10)
    assert all(0 <= s <= 10 for s in scores)
    # The team with more pieces out never scores less.
    a, b = out[0] + out[2], out[1] + out[3]
    assert (scores[0] > scores[1]) == (a > b)


def test_a_team_match_is_two_games_and_partners_are_not_opponents() -> None:
    # Round 1: a+c against b+d, two games (clockwise 5:2, anti-clockwise 3:5):
    # a and c score (5 + 3) + (3 + 0) = 11, b and d (2 + 0) + (5 + 2) = 9.
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("abcd")]
    table = TableResult(
        tuple("abcd"),
        (GameResult((3, 1, 2, 1)), GameResult((2, 3, 1, 2))),
        factor=1.0,
        teams=((0, 2), (1, 3)),
    )
    rows = {r.player: r for r in compute_standings(players, [RoundResult(1, (table,))])}
    assert rows["a"].score == rows["c"].score == 11
    assert rows["b"].score == rows["d"].score == 9
    # Two games, one match (the book's 2 vs 2 match): 5.5 per game; per match the
    # match's 11 over its 2 games, on the scale of every other table size.
    assert rows["a"].games_played == 2
    assert rows["a"].average_per_game == 5.5
    assert rows["a"].average_per_match == 5.5
    # Opponents' score (first tie-break) is the mean of b and d, not of a partner.
    assert rows["a"].tie_breaks[0] == 9
    assert rows["b"].tie_breaks[0] == 11
