"""Scoring settings made true: unplayed games, averages per match, the even-turn check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import ScoringSettings
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)


def test_an_unplayed_game_is_the_books_even_result_and_keeps_the_players_seated() -> None:
    players = [StandingsPlayer(p) for p in "abcde"]
    # The turn ended: a-b played one game of three, c-d-e none.
    rounds = [
        RoundResult(
            1,
            (
                TableResult(
                    ("a", "b"), (GameResult((3, 1)), GameResult.unplayed(2), GameResult.unplayed(2))
                ),
                TableResult(("c", "d", "e"), (GameResult.unplayed(3), GameResult.unplayed(3))),
            ),
        )
    ]
    rows = {r.player: r for r in compute_standings(players, rounds)}
    # a: 2 * (5 + 3 + 3) = 22, b: 2 * (1 + 3 + 3) = 14; c, d, e: 3 * (3 + 3) = 18.
    assert (rows["a"].score, rows["b"].score) == (22, 14)
    assert all(rows[p].score == 18 for p in "cde")
    assert all(rows[p].marks == ("table",) for p in "abcde")
    assert rows["c"].games_played == 2
    assert rows["a"].tie_breaks[3] == 1  # wins: the unplayed games are no wins


def test_even_players_average_the_same_per_match_at_either_table_size() -> None:
    players = [StandingsPlayer(p) for p in "abcde"]
    even2 = (GameResult((3, 3)),) * 3
    even3 = (GameResult((3, 3, 3)),) * 2
    rounds = [RoundResult(1, (TableResult(("a", "b"), even2), TableResult(("c", "d", "e"), even3)))]
    rows = {r.player: r for r in compute_standings(players, rounds)}
    assert {r.average_per_match for r in rows.values()} == {3.0}
    assert {r.average_per_game for r in rows.values()} == {3.0}


def test_the_books_turn_is_even_and_one_game_per_turn_with_factors_2_and_3_is_not() -> None:
    book = ScoringSettings()
    assert book.even_turns() == {2: 18, 3: 18}
    assert book.turns_are_even()
    one_each = ScoringSettings(games_per_turn=((2, 1), (3, 1)))
    assert one_each.even_turns() == {2: 6, 3: 9}
    assert not one_each.turns_are_even()
    # The example: 2 and 1 games per turn with factors 2 and 3 make 12 against 9.
    assert ScoringSettings(games_per_turn=((2, 2), (3, 1))).even_turns() == {2: 12, 3: 9}
    # One game per turn at both sizes is even with equal factors.
    assert ScoringSettings(
        games_per_turn=((2, 1), (3, 1)), factors=((2, 3.0), (3, 3.0))
    ).turns_are_even()


outs = st.integers(min_value=0, max_value=3)


@st.composite
def tables(draw: st.DrawFn, size: int) -> tuple[GameResult, ...]:
    games_per_turn = 3 if size == 2 else 2
    played = draw(st.integers(min_value=0, max_value=games_per_turn))
    games = [
        GameResult(tuple(draw(outs) for _ in range(size)), finished=draw(st.booleans()))
        for _ in range(played)
    ]
    return tuple(games + [GameResult.unplayed(size)] * (games_per_turn - played))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(tables(2), tables(3)), min_size=1, max_size=4))
def test_every_table_hands_out_its_full_total_with_unplayed_games(
    rounds_games: list[tuple[tuple[GameResult, ...], tuple[GameResult, ...]]],
) -> None:
    players = [StandingsPlayer(p) for p in "abcde"]
    rounds = [
        RoundResult(i + 1, (TableResult(("a", "b"), two), TableResult(("c", "d", "e"), three)))
        for i, (two, three) in enumerate(rounds_games)
    ]
    rows = {r.player: r for r in compute_standings(players, rounds)}
    # Zero-sum per table and round: 2-player 3 * 3 * 2 * 2 = 36, 3-player 3 * 2 * 3 * 3 = 54.
    assert rows["a"].score + rows["b"].score == pytest.approx(36 * len(rounds))
    assert sum(rows[p].score for p in "cde") == pytest.approx(54 * len(rounds))
    # An even turn is worth the same at both sizes: every player averages the even score.
    assert sum(r.score for r in rows.values()) == pytest.approx(18 * 5 * len(rounds))
