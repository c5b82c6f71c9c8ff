"""The club's statistics core (tournaments/standings/statistics.py, docs/statistics.md): each
statistic on a constructed history whose answer is known, and the intervals against
their textbook values."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.dropped import dropped_scores
from tournaments.standings.statistics import (
    GameFact,
    Group,
    compute_statistics,
    is_draw,
    mean_interval,
    merge,
    spread,
    statistics_of,
    summarise,
    t975,
    wilson,
    winners,
)


def game(
    out: tuple[int, ...],
    *,
    status: str = "finished",
    teams: bool = False,
    players: tuple[str, ...] = (),
    ratings: tuple[float | None, ...] = (),
    colours: tuple[tuple[str, ...], ...] = (),
    plies: int | None = None,
    minutes: float | None = None,
    name: str = "pentagame",
) -> GameFact:
    sides = ((0, 2), (1, 3)) if teams else None
    scores = dropped_scores(out, 5 if teams else 3, sides)
    return GameFact(
        game=name,
        status=status,  # type: ignore[arg-type]
        out=out,
        scores=tuple(scores),
        teams=teams,
        players=players,
        ratings=ratings,
        colours=colours,
        plies=plies,
        minutes=minutes,
    )


# --- Intervals against their textbook values ------------------------------------------


def test_wilson_of_300_in_500_is_the_textbook_interval():
    share = wilson(300, 500)
    # p = 0.6, n = 500: centre (p + z²/2n)/(1 + z²/n), half width
    # z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n): 0.55645 .. 0.64202.
    assert share.value == pytest.approx(0.6)
    assert share.low == pytest.approx(0.55645, abs=5e-5)
    assert share.high == pytest.approx(0.64202, abs=5e-5)
    assert share.low < 0.6 < share.high


def test_wilson_stays_inside_0_and_1_where_the_normal_interval_would_not():
    none = wilson(0, 10)
    every = wilson(10, 10)
    assert none.low == 0.0 and 0 < none.high < 0.35
    assert every.high == 1.0 and 0.65 < every.low < 1
    assert wilson(0, 0).value is None


def test_t_quantiles_match_the_tables():
    # Student's t, 97.5th percentile: 12.706 (1), 2.228 (10), 2.042 (30), 1.984 (100),
    # 1.962 (1000), and the normal 1.960 in the limit.
    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(10) == pytest.approx(2.2281, abs=1e-4)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(31) == pytest.approx(2.0395, abs=1e-4)
    assert t975(100) == pytest.approx(1.9840, abs=1e-4)
    assert t975(1000) == pytest.approx(1.9623, abs=1e-4)
    assert t975(10.7) == t975(10)  # Welch's fractional degrees of freedom, rounded down


def test_t_expansion_continues_the_table_smoothly():
    values = [t975(df) for df in range(25, 200)]
    assert all(a > b for a, b in zip(values, values[1:], strict=False))


def test_the_mean_interval_is_students_t():
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    mean = mean_interval(values)
    sd = math.sqrt(sum((v - 5) ** 2 for v in values) / 7)
    assert mean.value == 5.0
    assert mean.sd == pytest.approx(sd)
    assert mean.high - mean.value == pytest.approx(2.364624 * sd / math.sqrt(8), rel=1e-6)
    assert mean_interval([3.0]).low is None
    assert mean_interval([]).value is None


def test_spread_is_the_type_7_percentile():
    s = spread([10, 20, 30, 40, 50])
    assert (s.least, s.q1, s.median, s.q3, s.most) == (10, 20, 30, 40, 50)
    assert s.p10 == pytest.approx(14.0)
    assert spread([7]).median == 7
    assert spread([]).n == 0


# --- What a win and a draw are --------------------------------------------------------


def test_a_win_is_the_best_score_alone_and_a_shared_top_is_none():
    assert winners(game((3, 1))) == (0,)
    assert winners(game((3, 3))) == ()
    assert winners(game((3, 3, 1))) == ()
    assert winners(game((1, 3, 2))) == (1,)
    assert winners(game((2, 1), status="unfinished")) == ()


def test_a_team_win_is_both_partners():
    assert winners(game((3, 1, 2, 2), teams=True)) == (0, 2)
    assert winners(game((3, 1, 2, 4), teams=True)) == ()  # 5 : 5


def test_a_draw_is_every_side_equal_in_a_finished_game():
    assert is_draw(game((3, 3)))
    assert is_draw(game((3, 3, 3)))
    assert not is_draw(game((3, 3, 1)))
    assert not is_draw(game((0, 0), status="unfinished"))


# --- Constructed histories -------------------------------------------------------------


def first_mover_history(n: int, wins: int, seats: int = 2) -> list[GameFact]:
    """n finished games; the first mover (index 0) wins `wins` of them 3 : 1 (3 : 1 : 1),
    the last seat the others."""
    facts = []
    for i in range(n):
        out = [1] * seats
        out[0 if i < wins else seats - 1] = 3
        facts.append(game(tuple(out)))
    return facts


def test_a_first_mover_who_wins_60_percent_of_500_games():
    stats = compute_statistics(first_mover_history(500, 300))
    (row,) = stats.first_move
    assert row.group == Group("pentagame", False, 2)
    assert row.games == 500
    assert row.wins.value == pytest.approx(0.6)
    assert row.wins.low < 0.6 < row.wins.high
    # Wilson's width at p = 0.6, n = 500: about 2·1.96·sqrt(0.24/500) = 0.0859.
    assert row.wins.high - row.wins.low == pytest.approx(0.0856, abs=0.001)
    assert row.fair == pytest.approx(0.5)
    # 3 : 1 is 5 : 1 in dropped scores: 0.6·5 + 0.4·1 = 3.4, 0.4 above the even 3.
    assert row.score.value == pytest.approx(3.4)
    assert row.even == pytest.approx(3.0)
    assert row.above_even.value == pytest.approx(0.4)
    assert row.score.low < 3.4 < row.score.high


def test_the_first_mover_at_3_player_tables_is_measured_against_a_third():
    stats = compute_statistics(first_mover_history(300, 100, seats=3))
    (row,) = stats.first_move
    assert row.wins.value == pytest.approx(1 / 3)
    assert row.fair == pytest.approx(1 / 3)


def test_unfinished_games_are_not_first_move_games():
    facts = first_mover_history(10, 6) + [game((2, 1), status="unfinished")]
    (row,) = compute_statistics(facts).first_move
    assert row.games == 10


@given(
    st.integers(min_value=1, max_value=400),
    st.floats(min_value=0.0, max_value=1.0),
)
def test_the_win_share_interval_holds_the_observed_share(n, p):
    wins = round(n * p)
    (row,) = compute_statistics(first_mover_history(n, wins)).first_move
    assert row.wins.value == pytest.approx(wins / n)
    assert 0 <= row.wins.low <= row.wins.value <= row.wins.high <= 1


def test_the_interval_covers_a_true_share_of_60_percent_about_95_times_in_100():
    rng = random.Random(26)
    covered = 0
    for _ in range(400):
        wins = sum(rng.random() < 0.6 for _ in range(200))
        share = wilson(wins, 200)
        covered += share.low <= 0.6 <= share.high
    assert 0.92 <= covered / 400 <= 0.98


def test_seat_order_scores_after_the_stronger_and_the_weaker_opponent():
    # Ratings S=1800 > M=1600 > W=1400; each seat's opponents are the one moving right
    # before her (vorhand) and the one right after (hinterhand).
    # Clockwise S→M→W, 3 : 1 : 2: M moves after S, before W: after the stronger (1 of 3:
    # dropped 1 + (0 + 1)/2 = 1.5); W after M, before S: after the weaker (2: 3.0); S after
    # W, before M: after the weaker (3: 4.5).
    facts = [game((3, 1, 2), ratings=(1800.0, 1600.0, 1400.0)) for _ in range(20)]
    # Widdershins S→W→M, 3 : 1 : 2: W after S (stronger, 1.5), M after W (weaker, 3.0), S
    # after M, before W (stronger, 4.5).
    facts += [game((3, 1, 2), ratings=(1800.0, 1400.0, 1600.0)) for _ in range(20)]
    (row,) = compute_statistics(facts).seat_order
    assert row.games == 40
    # After the stronger: 20 × 1.5, 20 × 1.5, 20 × 4.5; after the weaker: 20 × 3.0,
    # 20 × 4.5, 20 × 3.0.
    assert row.after_stronger.n == 60
    assert row.after_stronger.value == pytest.approx(2.5)
    assert row.after_weaker.n == 60
    assert row.after_weaker.value == pytest.approx(3.5)
    assert row.difference.value == pytest.approx(-1.0)
    assert row.difference.low < -1.0 < row.difference.high < 0
    assert row.stronger_above_even.value == pytest.approx(-0.5)
    assert row.weaker_above_even.value == pytest.approx(0.5)
    assert row.left_out == 0


def test_seat_order_leaves_out_and_counts_unknown_or_equal_ratings():
    facts = [
        game((3, 1, 2), ratings=(1500.0, None, 1600.0)),
        game((3, 1, 2), ratings=(1500.0, 1500.0, 1500.0)),
        game((3, 1, 2)),  # no ratings at all
    ]
    (row,) = compute_statistics(facts).seat_order
    # The first game: seat 0 has opponents None and 1600 → out; seat 1: 1500 vs 1600 → in;
    # seat 2: None vs 1500 → out. The others: every seat out.
    assert row.after_stronger.n + row.after_weaker.n == 1
    assert row.left_out == 8


def test_seat_order_is_only_for_3_player_tables():
    facts = first_mover_history(10, 5)
    assert compute_statistics(facts).seat_order == ()


def test_game_length_by_table_size_with_the_books_minutes():
    facts = [game((3, 1), plies=p, minutes=m) for p, m in ((20, 15.0), (30, 20.0), (40, 25.0))]
    facts += [game((3, 1, 2), plies=60, minutes=None), game((3, 1, 2))]
    facts += [game((2, 1), status="unfinished", plies=12, minutes=5.0)]  # not counted
    stats = compute_statistics(facts, book_minutes={"pentagame": {2: 20, 3: 40}})
    two, three = stats.lengths
    assert (two.plies.n, two.plies.median, two.plies.q1, two.plies.q3) == (3, 30, 25, 35)
    assert (two.minutes.n, two.minutes.median) == (3, 20.0)
    assert two.book_minutes == 20
    assert (three.plies.n, three.plies.median, three.minutes.n) == (1, 60, 0)
    assert three.book_minutes == 40


def test_colour_letters_most_frequent_first_and_each_players_word():
    # Table 4: first out picks the column, second the row: white then blue is F, blue
    # then white B, yellow then blue I/J. (A player has one piece of each colour, so the
    # diagonal, A G N T Z, never comes up.)
    facts = [
        game((3, 1), players=("ann", "bo"), colours=(("w", "b", "r"), ("g",))),  # F for ann
        game((1, 3), players=("ann", "bo"), colours=(("w",), ("b", "w", "y"))),  # B for bo
        game((3, 2), players=("ann", "bo"), colours=(("w", "b", "g"), ("y", "y"))),  # F ann
        game((3, 3), players=("ann", "bo"), colours=(("w", "r", "g"), ("r", "w", "b"))),  # draw
        game((3, 1), players=("bo", "ann"), colours=(("y", "b", "g"), ("r",))),  # I/J for bo
        game((3, 1), players=("bo", "ann"), colours=(("b",), ("r",))),  # a win, no letter
    ]
    stats = compute_statistics(facts)
    assert stats.letters.counts == (("F", 2), ("B", 1), ("I/J", 1))
    assert stats.letters.total == 4
    assert stats.letters.missing == 1
    words = {w.player: w.text for w in stats.words}
    assert words == {"ann": "FF", "bo": "BI"}


def test_draws_shared_tops_and_unfinished_games_by_table_size():
    facts = [
        game((3, 3)),
        game((3, 1)),
        game((3, 2)),
        game((2, 1), status="unfinished"),
        game((0, 0), status="unfinished"),
        game((3, 3, 1)),
        game((3, 3, 3)),
        game((1, 3, 0)),
    ]
    two, three = compute_statistics(facts).outcomes
    assert (two.games, two.won, two.drawn, two.shared, two.unfinished, two.unplayed) == (
        5,
        2,
        1,
        0,
        2,
        1,
    )
    assert two.draws.value == pytest.approx(0.2)
    assert (three.games, three.won, three.drawn, three.shared, three.unfinished) == (3, 1, 1, 1, 0)


def test_groups_follow_the_game_order_then_teams_then_size():
    facts = [
        game((3, 1, 2), name="pent_up"),
        game((3, 1)),
        game((3, 1, 2, 1), teams=True),
        game((3, 1, 2)),
    ]
    stats = compute_statistics(facts, game_order=("pentagame", "pent_up"))
    assert [row.group for row in stats.outcomes] == [
        Group("pentagame", False, 2),
        Group("pentagame", False, 3),
        Group("pentagame", True, 4),
        Group("pent_up", False, 3),
    ]


def test_no_games_give_empty_statistics():
    stats = compute_statistics([])
    assert stats.games == 0
    assert stats.first_move == () and stats.outcomes == () and stats.words == ()
    assert stats.as_json()["games"] == 0


def test_a_fact_with_seats_that_do_not_match_is_refused():
    with pytest.raises(ValueError):
        GameFact(game="pentagame", status="finished", out=(3, 1), scores=(5.0, 1.0, 3.0))
    with pytest.raises(ValueError):
        GameFact(
            game="pentagame",
            status="finished",
            out=(3, 1),
            scores=(5.0, 1.0),
            ratings=(1500.0,),
        )


OUTS = st.sampled_from([(3, 1), (3, 3), (0, 3), (2, 1), (3, 1, 2), (3, 3, 1), (0, 0, 0), (1, 2, 3)])


@st.composite
def histories(draw):
    facts = []
    for i in range(draw(st.integers(min_value=0, max_value=40))):
        out = draw(OUTS)
        n = len(out)
        facts.append(
            game(
                out,
                status="finished" if max(out) == 3 else "unfinished",
                players=tuple(f"p{(i + k) % 5}" for k in range(n)),
                ratings=tuple(
                    draw(st.sampled_from([None, 1400.0, 1500.0, 1600.0])) for _ in range(n)
                ),
                colours=tuple(
                    tuple(draw(st.permutations(["w", "b", "r", "y", "g"]))[:o]) for o in out
                ),
                plies=draw(st.none() | st.integers(min_value=10, max_value=300)),
                minutes=draw(st.none() | st.floats(min_value=1, max_value=120)),
            )
        )
    return facts


@given(histories(), st.integers(min_value=0, max_value=40))
def test_summaries_of_parts_merge_to_the_whole(facts, cut):
    """A club's statistics from its events' summaries, added up in order, are those of all
    its games at once (what lets a changed result cost one event, not the club)."""
    whole = summarise(facts)
    parts = merge([summarise(facts[:cut]), summarise(facts[cut:])])
    a, b = statistics_of(whole), statistics_of(parts)
    assert a.games == b.games and a.letters == b.letters and a.words == b.words
    assert a.outcomes == b.outcomes and a.lengths == b.lengths
    for x, y in zip(a.first_move, b.first_move, strict=True):
        assert (x.group, x.games, x.wins, x.fair) == (y.group, y.games, y.wins, y.fair)
        assert x.score.value == pytest.approx(y.score.value)
        assert x.score.high == pytest.approx(y.score.high, nan_ok=True)
    for x, y in zip(a.seat_order, b.seat_order, strict=True):
        assert (x.games, x.left_out, x.after_stronger.n) == (
            y.games,
            y.left_out,
            y.after_stronger.n,
        )
        assert x.after_weaker.value == pytest.approx(y.after_weaker.value)
