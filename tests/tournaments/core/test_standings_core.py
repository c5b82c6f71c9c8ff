"""Pure standings: scores, averages, tie-breaks in the organiser's order, shared ranks."""

from __future__ import annotations

import random

import pytest

from tournaments.scoring import ScoringSettings
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)


def table(seats: str, *games: tuple[int, ...], finished: bool = True) -> TableResult:
    return TableResult(tuple(seats), tuple(GameResult(g, finished) for g in games))


PLAYERS = [
    StandingsPlayer(pid, rating=r, seed=i + 1)
    for i, (pid, r) in enumerate(
        [("a", 1500.0), ("b", 1400.0), ("c", 1300.0), ("d", 1200.0), ("e", 1100.0)]
    )
]

# Round 1: a beats b three times (3:1 each), c-d-e at a 3-player table.
# Round 2: a-c even, b-d-e; e had two unfinished games.
ROUNDS = [
    RoundResult(1, (table("ab", (3, 1), (3, 1), (3, 1)), table("cde", (3, 1, 2), (2, 3, 1)))),
    RoundResult(
        2,
        (table("ac", (3, 3), (3, 3), (3, 3)), table("bde", (1, 2, 0), (2, 2, 1), finished=False)),
    ),
]


def test_scores_rounds_games_and_averages() -> None:
    rows = {r.player: r for r in compute_standings(PLAYERS, ROUNDS)}
    # a: 3 games of 5 (×2) = 30, then 3 × 3 (×2) = 18.
    assert rows["a"].score == 48
    # b at the 3-player table: 1 + (1 + 3) / 2 = 3 and 2 + (1 + 2) / 2 = 3.5, ×3.
    assert rows["b"].score == 6 + (3 + 3.5) * 3
    assert rows["a"].rounds_played == 2
    assert rows["a"].games_played == 6
    assert rows["a"].average_per_game == pytest.approx(24 / 6)
    # A 3-player match is two games: its total counts per (n - 1)! = 2 games, so the
    # match at the 3-player table is on the scale of a 2-player match (docs/scoring.md).
    c = rows["c"]
    assert c.games_played == 5
    assert c.average_per_match == pytest.approx(((4.5 + 3.0) / 2 + 9.0) / (1 + 3))
    assert sum(r.score for r in rows.values()) == pytest.approx(18 * 5 * 2)


def test_ranked_best_first_with_tie_breaks_in_order() -> None:
    rows = compute_standings(PLAYERS, ROUNDS, tie_breaks=("opponents", "rating"))
    assert [r.player for r in rows][0] == "a"
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    scores = [r.score for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(len(r.tie_breaks) == 2 for r in rows)


def test_opponents_score_is_mean_of_table_mates_summed_over_rounds() -> None:
    rows = {r.player: r for r in compute_standings(PLAYERS, ROUNDS, tie_breaks=("opponents",))}
    final = {p: r.score for p, r in rows.items()}
    assert rows["a"].tie_breaks[0] == pytest.approx(final["b"] + final["c"])
    assert rows["d"].tie_breaks[0] == pytest.approx(
        (final["c"] + final["e"]) / 2 + (final["b"] + final["e"]) / 2
    )


def test_fully_tied_players_share_their_rank() -> None:
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("wxyz")]
    rounds = [RoundResult(1, (table("wx", (3, 3)), table("yz", (3, 3))))]
    rows = compute_standings(players, rounds, tie_breaks=("opponents", "wins"))
    assert [r.rank for r in rows] == [1, 1, 1, 1]


def test_direct_encounter_decides_between_tied_players() -> None:
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("wxyz")]
    rounds = [
        RoundResult(1, (table("wx", (3, 0)), table("yz", (3, 2)))),
        RoundResult(2, (table("wy", (2, 3)), table("xz", (3, 3)))),
    ]
    by = {r.player: r for r in compute_standings(players, rounds, tie_breaks=("direct",))}
    # w: 12 + 4 = 16, y: 8 + 8 = 16; y won their game 8 to 4.
    assert by["y"].score == by["w"].score == 16
    assert (by["y"].rank, by["w"].rank) == (1, 2)
    assert by["y"].tie_breaks == (4.0,)
    assert by["w"].tie_breaks == (-4.0,)


def test_games_won_and_median() -> None:
    rows = {r.player: r for r in compute_standings(PLAYERS, ROUNDS, tie_breaks=("wins", "median"))}
    assert rows["a"].tie_breaks[0] == 3  # three wins against b, 3:3 draws are not wins
    assert rows["b"].tie_breaks[0] == 0  # the unfinished games are not wins


def test_byes_absences_and_late_entries_per_settings() -> None:
    players = [
        StandingsPlayer("a"),
        StandingsPlayer("b"),
        StandingsPlayer("c"),
        StandingsPlayer("late", first_round=2, status="late"),
    ]
    rounds = [
        RoundResult(1, (table("ab", (3, 3)),), byes=("c",)),
        RoundResult(2, (table("ac", (3, 3)),), byes=(), absent=("b",)),
    ]
    rows = {r.player: r for r in compute_standings(players, rounds)}
    assert rows["c"].score == 18 + 6
    assert rows["c"].marks == ("bye", "table")
    assert rows["b"].marks == ("table", "absent")
    assert rows["late"].marks == ("late", "absent")
    assert rows["late"].score == 0
    custom = ScoringSettings(bye_score=9.0, absence_score=-1.0, late_score=4.0)
    rows = {r.player: r for r in compute_standings(players, rounds, settings=custom)}
    assert rows["c"].score == 9 + 6
    assert rows["b"].score == 6 - 1
    assert rows["late"].score == 4 - 1


def test_team_tables_need_a_factor_and_score_per_team() -> None:
    players = [StandingsPlayer(p) for p in "abcd"]
    team = TableResult(
        tuple("abcd"), (GameResult((3, 1, 2, 1)),), factor=1.0, teams=((0, 2), (1, 3))
    )
    rows = {r.player: r for r in compute_standings(players, [RoundResult(1, (team,))])}
    assert rows["a"].score == rows["c"].score == 8
    with pytest.raises(ValueError):
        bad = TableResult(tuple("abcd"), (GameResult((3, 1, 2, 1)),), teams=((0, 2), (1, 3)))
        compute_standings(players, [RoundResult(1, (bad,))])


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        compute_standings(PLAYERS, [RoundResult(1, (table("ab", (3, 1)), table("bc", (3, 1))))])
    with pytest.raises(ValueError):
        compute_standings(PLAYERS, [RoundResult(1, (table("az", (3, 1)),))])
    with pytest.raises(ValueError):
        compute_standings(PLAYERS, [], tie_breaks=("coin",))  # type: ignore[arg-type]


def test_large_field_smoke() -> None:
    rng = random.Random(4)
    players = [StandingsPlayer(f"p{i}", rating=rng.uniform(1000, 2000), seed=i) for i in range(300)]
    rounds = []
    for number in range(1, 10):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        tables = [
            table(ids[i : i + 2], *[(3, rng.randint(0, 3)) for _ in range(3)])
            for i in range(0, 294, 2)
        ]
        tables.append(table(ids[294:297], (3, 1, 2), (1, 3, 3)))
        tables.append(table(ids[297:], (3, 3, 0), (0, 1, 3)))
        rounds.append(RoundResult(number, tuple(tables)))
    rows = compute_standings(players, rounds)
    assert len(rows) == 300
    assert sum(r.score for r in rows) == pytest.approx(18 * 300 * 9)
