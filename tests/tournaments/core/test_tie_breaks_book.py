"""The worked 3-player example of docs/scoring.md ("Tie-breaks, worked example"): every
tie-break computed by hand there, and the code equal to it."""

from __future__ import annotations

import pytest

from tournaments.standings.table import (
    ALL_TIE_BREAKS,
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

CW = (0, 1, 2)  # clockwise from the first seat
WS = (0, 2, 1)  # widdershins


def game(*out: int, order: tuple[int, ...] | None = None) -> GameResult:
    return GameResult(out, order=order)


PLAYERS = [
    StandingsPlayer(pid, rating=r, seed=i + 1)
    for i, (pid, r) in enumerate(
        [("A", 1600.0), ("B", 1500.0), ("C", 1400.0), ("D", 1300.0), ("E", 1200.0)]
    )
]
ROUNDS = [
    RoundResult(
        1,
        (
            TableResult(("A", "B"), (game(3, 1), game(3, 3), game(3, 2))),
            TableResult(("C", "D", "E"), (game(3, 3, 1, order=CW), game(1, 3, 2, order=WS))),
        ),
    ),
    RoundResult(
        2,
        (
            TableResult(("B", "E"), (game(3, 3), game(3, 3), game(3, 3))),
            TableResult(("A", "C", "D"), (game(1, 3, 2, order=CW), game(2, 3, 2, order=WS))),
        ),
    ),
]


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, float]]:
    standings = compute_standings(PLAYERS, ROUNDS, tie_breaks=ALL_TIE_BREAKS)
    return {
        r.player: {
            "score": r.score,
            "rank": r.rank,
            **dict(zip(ALL_TIE_BREAKS, r.tie_breaks, strict=True)),
        }
        for r in standings
    }


def test_scores_of_the_example(rows: dict[str, dict[str, float]]) -> None:
    # Round 1: A 2 * (5 + 3 + 4) = 24, B 2 * (1 + 3 + 2) = 12; C 3 * (4 + 1.5) = 16.5,
    # D 3 * (4 + 4.5) = 25.5, E 3 * (1 + 3) = 12. Round 2: B and E 2 * 9 = 18 each;
    # A 3 * (1.5 + 2.5) = 12, C 3 * (4.5 + 4) = 25.5, D 3 * (3 + 2.5) = 16.5.
    assert {p: r["score"] for p, r in rows.items()} == {
        "A": 36,
        "B": 30,
        "C": 42,
        "D": 42,
        "E": 30,
    }


def test_opponents_score_is_the_mean_of_the_table_mates_per_round(
    rows: dict[str, dict[str, float]],
) -> None:
    assert rows["C"]["opponents"] == pytest.approx((42 + 30) / 2 + (36 + 42) / 2)  # 75
    assert rows["D"]["opponents"] == pytest.approx((42 + 30) / 2 + (36 + 42) / 2)  # 75
    assert rows["B"]["opponents"] == pytest.approx(36 + 30)  # 66
    assert rows["E"]["opponents"] == pytest.approx((42 + 42) / 2 + 30)  # 72


def test_median_drops_nothing_with_two_rounds(rows: dict[str, dict[str, float]]) -> None:
    assert rows["E"]["median"] == rows["E"]["opponents"]


def test_wins_count_only_a_best_score_alone(rows: dict[str, dict[str, float]]) -> None:
    # C and D share the best score of round 1's first game (4 and 4): nobody won it.
    # D won round 1's second game (4.5); C won both games of round 2 (4.5, 4).
    assert (rows["C"]["wins"], rows["D"]["wins"]) == (2, 1)
    assert (rows["A"]["wins"], rows["B"]["wins"], rows["E"]["wins"]) == (2, 0, 0)


def test_averages_per_game_and_per_match(rows: dict[str, dict[str, float]]) -> None:
    assert rows["B"]["per_game"] == pytest.approx((6 + 9) / 6)  # 2.5
    assert rows["E"]["per_game"] == pytest.approx((1 + 3 + 9) / 5)  # 2.6
    assert rows["B"]["per_match"] == pytest.approx((6 + 9) / 6)  # 2.5
    # E's 3-player match (1 + 3) counts per 2 games: (4 / 2 + 9) / (1 + 3) = 2.75.
    assert rows["E"]["per_match"] == pytest.approx((4 / 2 + 9) / 4)


def test_seated_after_weights_each_game_by_the_player_moving_before(
    rows: dict[str, dict[str, float]],
) -> None:
    # Strength = average dropped score per game: A 16 / 5 = 3.2, C 14 / 4 = 3.5,
    # D 14 / 4 = 3.5, E 13 / 5 = 2.6; each game counts factor * score * strength / 3.
    c = 3 * 4 * 2.6 / 3 + 3 * 1.5 * 3.5 / 3 + 3 * 4.5 * 3.2 / 3 + 3 * 4 * 3.5 / 3
    d = 3 * 4 * 3.5 / 3 + 3 * 4.5 * 2.6 / 3 + 3 * 3 * 3.5 / 3 + 3 * 2.5 * 3.2 / 3
    assert rows["C"]["seated_after"] == pytest.approx(c)  # 44.05
    assert rows["D"]["seated_after"] == pytest.approx(d)  # 44.2


def test_direct_encounter_of_players_who_shared_every_table_is_even(
    rows: dict[str, dict[str, float]],
) -> None:
    # C and D: round 1 16.5 - 25.5, round 2 25.5 - 16.5.
    assert rows["C"]["direct"] == rows["D"]["direct"] == 0


def test_the_organisers_order_decides() -> None:
    def order(*names: str) -> list[str]:
        rows = compute_standings(PLAYERS, ROUNDS, tie_breaks=names)  # type: ignore[arg-type]
        return [r.player for r in rows]

    # Opponents and direct leave C and D tied; wins puts C first, seated-after D.
    assert order("opponents", "direct", "wins")[:2] == ["C", "D"]
    assert order("opponents", "direct", "seated_after")[:2] == ["D", "C"]
    assert order("opponents")[3:] == ["E", "B"]
    assert order("per_game")[3:] == ["E", "B"]
    assert order("rating")[3:] == ["B", "E"]


def test_book_example_of_fine_tuning() -> None:
    # Section 3: "players A, B and C have played 3:3:2 and were moving in the order
    # A -> B -> C, then player B is a stronger player than player A."
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("ABC")]
    rounds = [RoundResult(1, (TableResult(("A", "B", "C"), (game(3, 3, 2, order=CW),)),))]
    rows = compute_standings(players, rounds, tie_breaks=("seated_after",))
    assert [r.player for r in rows] == ["B", "A", "C"]
    assert rows[0].score == rows[1].score


def test_direct_encounter_at_a_3_player_table_counts_only_the_tied_table_mate() -> None:
    # Round 1, x y z: 3:2:2 gives x 3 + (1 + 1) / 2 = 4, y 2 + (0 + 1) / 2 = 2.5; 0:3:2
    # gives x 0 + (0 + 1) / 2 = 0.5, y 3 + (3 + 1) / 2 = 5: x 3 * 4.5 = 13.5, y 3 * 7.5 =
    # 22.5. Round 2: x-w 3:0, 2:2, 0:0 = 2 * (6 + 3 + 3) = 24; y-z-v 3:1:3, 1:3:3 gives y
    # 3 + (2 + 0) / 2 = 4 and 1 + 0 = 1, 3 * 5 = 15. x and y both 37.5.
    players = [StandingsPlayer(p) for p in "xyzwv"]
    rounds = [
        RoundResult(
            1,
            (
                TableResult(("x", "y", "z"), (game(3, 2, 2), game(0, 3, 2))),
                TableResult(("w", "v"), (game(3, 3), game(3, 3), game(2, 1))),
            ),
        ),
        RoundResult(
            2,
            (
                TableResult(("x", "w"), (game(3, 0), game(2, 2), game(0, 0))),
                TableResult(("y", "z", "v"), (game(3, 1, 3), game(1, 3, 3))),
            ),
        ),
    ]
    rows = {r.player: r for r in compute_standings(players, rounds, tie_breaks=("direct",))}
    assert rows["x"].score == rows["y"].score == 37.5
    # z sat at that table too but is not tied: only 13.5 - 22.5 counts.
    assert (rows["x"].tie_breaks, rows["y"].tie_breaks) == ((-9.0,), (9.0,))
    assert rows["y"].rank < rows["x"].rank
