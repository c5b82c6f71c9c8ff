"""Who is ranked (issue 27, item 7; docs/standings.md, "Who is ranked"): a player with no
table and no bye in any closed round is listed apart, not ranked on absence or
missed-round points alone as if she had played; the others' ranks close up, ties kept."""

from __future__ import annotations

from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
    ranked_apart,
)


def table(seats: str, *games: tuple[int, ...]) -> TableResult:
    return TableResult(tuple(seats), tuple(GameResult(g) for g in games))


def test_a_player_who_never_sat_at_a_table_is_listed_apart_and_the_ranks_close_up():
    # a beats b, c and d draw; e entered and never came (absent: 0 points); f entered
    # for round 2 (late) and is still to play.
    players = [
        StandingsPlayer("a", seed=1),
        StandingsPlayer("b", seed=2),
        StandingsPlayer("c", seed=3),
        StandingsPlayer("d", seed=4),
        StandingsPlayer("e", seed=5),
        StandingsPlayer("f", seed=6, status="late", first_round=2),
    ]
    rounds = [RoundResult(1, (table("ab", (3, 1)), table("cd", (3, 3))))]
    rows = compute_standings(players, rounds)
    # Without the rule, e and f would share 5th place, ranked as if they had played.
    assert [(r.player, r.rank) for r in rows][-2:] == [("e", 5), ("f", 5)]

    ranked, apart = ranked_apart(rows)

    assert [(r.player, r.rank) for r in ranked] == [("a", 1), ("c", 2), ("d", 2), ("b", 4)]
    assert [r.player for r in apart] == ["e", "f"]
    assert apart[0].marks == ("absent",) and apart[1].marks == ("late",)


def test_a_bye_counts_as_taking_part():
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("abc", start=1)]
    rows = compute_standings(players, [RoundResult(1, (table("ab", (3, 1)),), byes=("c",))])
    ranked, apart = ranked_apart(rows)
    assert {r.player for r in ranked} == {"a", "b", "c"} and apart == []


def test_before_any_round_is_closed_everyone_is_listed_by_seed():
    players = [StandingsPlayer(p, seed=i) for i, p in enumerate("abc", start=1)]
    rows = compute_standings(players, [])
    ranked, apart = ranked_apart(rows)
    assert [(r.player, r.rank) for r in ranked] == [("a", 1), ("b", 1), ("c", 1)]
    assert apart == []
