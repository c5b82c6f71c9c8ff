"""The season's pure core against a plain recomputation: best N, a minimum to be
ranked, points for taking part, shared ranks (docs/scoring.md "Seasons")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.season import EventResult, SeasonRules, season_standings

EVENTS = [11, 12, 13, 14, 15]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[EventResult], SeasonRules]:
    results = []
    for player in range(1, draw(st.integers(1, 8)) + 1):
        played = draw(st.lists(st.sampled_from(EVENTS), unique=True, max_size=len(EVENTS)))
        for event in played:
            # Halves times the time factors: the scores the standings really give.
            score = draw(st.integers(0, 120)) * 1.5
            results.append(EventResult(event=event, player=player, score=score, rank=None))
    rules = SeasonRules(
        best_of=draw(st.none() | st.integers(1, 6)),
        min_events=draw(st.integers(1, 4)),
        participation_points=draw(st.sampled_from([0.0, 1.0, 2.5])),
    )
    return results, rules


def plain_totals(results: list[EventResult], rules: SeasonRules) -> dict[int, float]:
    scores: dict[int, list[float]] = {}
    for r in results:
        scores.setdefault(r.player, []).append(r.score)
    totals = {}
    for player, mine in scores.items():
        best = sorted(mine, reverse=True)[: rules.best_of or len(mine)]
        totals[player] = sum(best) + rules.participation_points * len(mine)
    return totals


@given(histories())
def test_totals_equal_the_best_n_plus_participation_recomputed_plainly(history):
    results, rules = history
    ranked, apart = season_standings(results, EVENTS, rules)
    totals = plain_totals(results, rules)
    played = {r.player: sum(1 for x in results if x.player == r.player) for r in results}
    assert {r.player: r.total for r in (*ranked, *apart)} == pytest.approx(totals)
    assert {r.player for r in ranked} == {p for p, n in played.items() if n >= rules.min_events}
    assert {r.player for r in apart} == {p for p, n in played.items() if n < rules.min_events}
    assert all(r.rank is None for r in apart)


@given(histories())
def test_ranks_follow_the_totals_and_equal_rows_share_a_rank(history):
    results, rules = history
    ranked, _apart = season_standings(results, EVENTS, rules)
    for i, row in enumerate(ranked):
        assert row.rank is not None and row.rank <= i + 1
        if i:
            before = ranked[i - 1]
            assert before.total >= row.total - 1e-9
            same = (before.total, before.all_events) == (row.total, row.all_events) and max(
                c.score for c in before.cells
            ) == max(c.score for c in row.cells)
            assert (row.rank == before.rank) == same
        else:
            assert row.rank == 1


@given(histories())
def test_exactly_best_n_events_are_counted_and_none_counted_scores_beat_them(history):
    results, rules = history
    ranked, apart = season_standings(results, EVENTS, rules)
    for row in (*ranked, *apart):
        counted = [c.score for c in row.cells if c.counted]
        left_out = [c.score for c in row.cells if not c.counted]
        assert len(counted) == min(row.played, rules.best_of or row.played)
        assert not left_out or max(left_out) <= min(counted)
        assert [c.event for c in row.cells] == sorted(
            (c.event for c in row.cells), key=EVENTS.index
        )


def test_a_worked_example_best_two_of_three_ranked_after_two_with_two_points_each():
    # docs/scoring.md "Seasons", the worked example.
    results = [
        EventResult(11, 1, 20.0, 2),
        EventResult(12, 1, 24.0, 1),
        EventResult(13, 1, 10.0, 5),
        EventResult(11, 2, 26.0, 1),
        EventResult(13, 2, 18.0, 2),
        EventResult(12, 3, 30.0, 1),
    ]
    ranked, apart = season_standings(
        results, [11, 12, 13], SeasonRules(best_of=2, min_events=2, participation_points=2)
    )
    assert [(r.player, r.rank, r.total) for r in ranked] == [(1, 1, 50.0), (2, 2, 48.0)]
    assert [c.counted for c in ranked[0].cells] == [True, True, False]
    assert [(r.player, r.total) for r in apart] == [(3, 32.0)]


def test_rules_refuse_nonsense():
    with pytest.raises(ValueError):
        SeasonRules(best_of=0)
    with pytest.raises(ValueError):
        SeasonRules(min_events=0)
    with pytest.raises(ValueError):
        SeasonRules(participation_points=-1)
