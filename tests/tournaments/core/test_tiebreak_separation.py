"""What separates each row of the standings from its neighbours (tournaments/standings/
table.py, ``separation`` and ``separations``; no Django): the score, the first tie-break
that split two rows level on points and by how much, or a shared place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.table import (
    GameResult,
    RoundResult,
    Separation,
    StandingsPlayer,
    TableResult,
    compute_standings,
    separation,
    separations,
)


def table(seats: str, *games: tuple[int, ...]) -> TableResult:
    return TableResult(tuple(seats), tuple(GameResult(g, True) for g in games))


def test_level_on_points_separated_by_the_first_tie_break_and_by_how_much() -> None:
    # a beats b, c beats d, all 3:1 (a and c 30, b and d 6); then a-d and b-c even:
    # a and c level on 48, b and d on 24. a's opponents (b 24 + d 24) equal c's (d 24 +
    # b 24)... so the rating decides them.
    players = [
        StandingsPlayer("a", rating=1500, seed=1),
        StandingsPlayer("b", rating=1400, seed=2),
        StandingsPlayer("c", rating=1450, seed=3),
        StandingsPlayer("d", rating=1300, seed=4),
    ]
    rounds = [
        RoundResult(1, (table("ab", (3, 1), (3, 1), (3, 1)), table("cd", (3, 1), (3, 1), (3, 1)))),
        RoundResult(2, (table("ad", (3, 3), (3, 3), (3, 3)), table("bc", (3, 3), (3, 3), (3, 3)))),
    ]
    rows = compute_standings(players, rounds, ("opponents", "rating"))
    assert [r.player for r in rows] == ["a", "c", "b", "d"]
    assert rows[0].score == rows[1].score
    seps = separations(rows, ("opponents", "rating"))
    # a above c: level on points and on opponents, the rating 1500 against 1450.
    assert seps[0] == (None, Separation("rating", 50.0))
    assert seps[1][0] == Separation("rating", 50.0)
    # c above b: the score, 48 against 24.
    assert seps[1][1] == Separation("score", rows[1].score - rows[2].score)
    assert seps[3] == (seps[2][1], None)


def test_the_first_tie_break_decides_before_a_later_one() -> None:
    # a and b level on 48 points; a's opponents scored 66 (x 24, u 42), b's 54 (y 24,
    # v 30); b's rating is higher: the opponents, chosen first, separate them, by 12.
    players = [
        StandingsPlayer("a", rating=1000, seed=2),
        StandingsPlayer("b", rating=2000, seed=1),
        *(StandingsPlayer(p, seed=i) for i, p in enumerate("xyuv", start=3)),
    ]
    win, close, even = (3, 1), (3, 2), (3, 3)
    rounds = [
        RoundResult(
            1,
            (table("ax", win, win, win), table("by", win, win, win), table("uv", *[close] * 3)),
        ),
        RoundResult(
            2,
            (
                table("au", even, even, even),
                table("bv", even, even, even),
                table("xy", *[even] * 3),
            ),
        ),
    ]
    rows = compute_standings(players, rounds, ("opponents", "rating"))
    first, second = rows[0], rows[1]
    assert (first.player, second.player) == ("a", "b")
    assert first.score == second.score == 48
    assert separation(first, second, ("opponents", "rating")) == Separation("opponents", 12.0)
    # With the rating first, the rating separates them the other way round.
    rows = compute_standings(players, rounds, ("rating", "opponents"))
    assert separation(rows[0], rows[1], ("rating", "opponents")) == Separation("rating", 1000.0)


def test_equal_on_everything_is_a_shared_place() -> None:
    players = [StandingsPlayer("a", seed=1), StandingsPlayer("b", seed=2)]
    rounds = [RoundResult(1, (table("ab", (3, 3), (3, 3), (3, 3)),))]
    rows = compute_standings(players, rounds, ("opponents", "wins"))
    assert rows[0].rank == rows[1].rank == 1
    assert separations(rows, ("opponents", "wins")) == [
        (None, Separation(None)),
        (Separation(None), None),
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=3, max_size=9),
    st.permutations(["opponents", "median", "direct", "wins", "rating", "per_game"]),
)
def test_a_shared_place_exactly_where_the_ranks_are_shared(games, order) -> None:
    # Six players in three 2-player tables, each table's games drawn at random, over
    # three rounds of rotating tables: wherever two neighbours share a rank the
    # separation says "shared place", wherever not it names what separates them, and the
    # upper row is ahead on it.
    players = [
        StandingsPlayer(p, rating=1000 + 10 * (i % 3), seed=i) for i, p in enumerate("abcdef")
    ]
    tables = [("ab", "cd", "ef"), ("ac", "be", "df"), ("ad", "bf", "ce")]
    rounds = []
    it = iter(games * 3)
    for number, seating in enumerate(tables, start=1):
        rounds.append(
            RoundResult(number, tuple(table(s, next(it, (3, 3)), (3, 3), (3, 3)) for s in seating))
        )
    tie_breaks = tuple(order[:3])
    rows = compute_standings(players, rounds, tie_breaks)
    for upper, lower in zip(rows, rows[1:], strict=False):
        found = separation(upper, lower, tie_breaks)
        assert (found.by is None) == (upper.rank == lower.rank)
        if found.by is not None:
            assert found.gap > 0
