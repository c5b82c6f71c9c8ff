"""The crosstable core: head-to-head dropped scores per pair of players."""

from __future__ import annotations

import pytest

from tournaments.scoring import ScoringSettings, dropped_scores
from tournaments.standings.crosstable import SharedTable, crosstable, team_crosstable

TEAM_SETTINGS = ScoringSettings(target=5, team_target=5)


def test_a_two_player_table_gives_each_game_s_dropped_score_and_its_mirror() -> None:
    rows = crosstable(["a", "b"], [SharedTable(1, ("a", "b"), ((3, 1), (2, 3), (3, 3)))])
    a, b = rows
    assert a.cells["b"].encounters[0].scores == (5.0, 2.0, 3.0)
    assert b.cells["a"].encounters[0].scores == (1.0, 4.0, 3.0)
    assert (a.total, b.total, a.games) == (10.0, 8.0, 3)


def test_each_pair_at_a_three_player_table_counts() -> None:
    rows = crosstable(["a", "b", "c"], [SharedTable(2, ("a", "b", "c"), ((3, 1, 2),))])
    by = {r.player: r for r in rows}
    assert by["a"].cells["b"].total == 5 and by["a"].cells["c"].total == 4
    assert by["b"].cells["c"].total == 2 and by["c"].cells["b"].total == 4
    # The game's dropped score is the mean of the head-to-head scores.
    for seat, player in enumerate("abc"):
        heads = [c.total for c in by[player].cells.values()]
        assert sum(heads) / 2 == pytest.approx(dropped_scores((3, 1, 2))[seat])


def test_team_mates_get_no_cell_and_opponents_the_team_score() -> None:
    table = SharedTable(1, ("a", "b", "c", "d"), ((3, 1, 2, 1),), teams=((0, 2), (1, 3)))
    by = {r.player: r for r in crosstable(["a", "b", "c", "d"], [table])}
    assert "c" not in by["a"].cells
    # A+C bring out 5, B+D 2 (target 5): 5 + 3 = 8 against 2.
    assert by["a"].cells["b"].total == 8 and by["d"].cells["c"].total == 2


def test_scheduled_meetings_show_without_scores_and_rematches_are_listed() -> None:
    tables = [
        SharedTable(1, ("a", "b"), ((3, 0),)),
        SharedTable(3, ("b", "a"), ((3, 2),)),
    ]
    by = {r.player: r for r in crosstable(["a", "b", "c"], tables, scheduled=[(2, ("a", "c"))])}
    assert [e.round for e in by["a"].cells["b"].encounters] == [1, 3]
    assert by["a"].cells["b"].total == 6 + 2
    pending = by["c"].cells["a"]
    assert not pending.played and pending.encounters[0].round == 2
    assert pending.total == 0 and by["c"].games == 0


TEAM_OF = {"a": "A", "c": "A", "b": "B", "d": "B", "e": "C", "g": "C", "f": "D", "h": "D"}
SIDES = ((0, 2), (1, 3))


def test_a_team_crosstable_has_one_cell_per_pair_of_teams_with_each_games_team_score() -> None:
    # Round 1: A (a, c in seats 1+3) against B; game 1 A brings out 5, B 2; game 2 B
    # plays out the round to 6 against 1.
    table = SharedTable(1, ("a", "b", "c", "d"), ((3, 1, 2, 1), (0, 3, 1, 3)), teams=SIDES)
    rows = {r.player: r for r in team_crosstable(["A", "B"], [table], TEAM_OF, TEAM_SETTINGS)}
    assert rows["A"].cells["B"].encounters[0].scores == (8.0, 0.0)
    assert rows["B"].cells["A"].encounters[0].scores == (2.0, 10.0)
    assert "A" not in rows["A"].cells
    # Zero-sum per game: a cell and its mirror add up to twice the team target.
    assert rows["A"].total + rows["B"].total == 2 * 5 * 2


def test_a_team_crosstable_follows_the_seats_not_the_order_of_the_sides() -> None:
    # B sits in seats 1+3 this time: the cells stay team against team.
    first = SharedTable(1, ("a", "b", "c", "d"), ((3, 0, 2, 0),), teams=SIDES)
    second = SharedTable(2, ("b", "e", "d", "g"), ((1, 2, 1, 3),), teams=SIDES)
    rows = {
        r.player: r
        for r in team_crosstable(["C", "B", "A"], [second, first], TEAM_OF, TEAM_SETTINGS)
    }
    assert [r.player for r in team_crosstable(["C", "B", "A"], [], TEAM_OF)] == ["C", "B", "A"]
    assert rows["B"].cells["A"].total == 0.0 and rows["A"].cells["B"].total == 10.0
    assert rows["B"].cells["C"].total == 2.0 and rows["C"].cells["B"].total == 8.0
    assert rows["B"].games == 2 and "C" not in rows["A"].cells


def test_a_team_crosstable_leaves_out_unknown_teams_and_tables_without_sides() -> None:
    tables = [
        SharedTable(1, ("a", "b", "c", "d"), ((3, 1, 2, 1),), teams=SIDES),
        SharedTable(1, ("e", "f", "g", "h"), ((3, 1, 2, 1),), teams=SIDES),
        SharedTable(2, ("a", "b"), ((3, 1),)),
    ]
    rows = team_crosstable(["A", "B"], tables, TEAM_OF, TEAM_SETTINGS)
    assert [sorted(r.cells) for r in rows] == [["B"], ["A"]]
    assert rows[0].games == 1


def test_a_game_at_a_three_player_table_counts_once_in_games_as_in_the_standings() -> None:
    # Two games at one 3-player table: each player played 2 games (the standings' count),
    # not one per opponent (4, as the crosstable said).
    rows = crosstable(["a", "b", "c"], [SharedTable(1, ("a", "b", "c"), ((3, 1, 2), (0, 3, 1)))])
    assert [r.games for r in rows] == [2, 2, 2]
    # Over two rounds at different tables: 2 + 1.
    rows = crosstable(
        ["a", "b", "c", "d"],
        [
            SharedTable(1, ("a", "b", "c"), ((3, 1, 2), (0, 3, 1))),
            SharedTable(2, ("a", "d"), ((3, 1),)),
        ],
    )
    assert rows[0].games == 3 and rows[3].games == 1
