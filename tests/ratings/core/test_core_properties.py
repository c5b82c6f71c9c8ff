"""Properties every system should have, checked on random states and results."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import (
    Elo,
    EloState,
    Glicko2,
    Glicko2State,
    OpenSkillParams,
    OpenSkillPL,
    OpenSkillState,
    RatedGame,
    RatingSystem,
)

ratings = st.floats(1000, 2400)
glicko_states = st.builds(Glicko2State, ratings, st.floats(30, 350), st.floats(0.03, 0.12))
elo_states = st.builds(EloState, ratings, st.integers(0, 100), st.booleans())
skill_states = st.builds(OpenSkillState, st.floats(10, 40), st.floats(1, 9))
results = st.tuples(st.integers(0, 3), st.integers(0, 3))


def systems_and_states() -> st.SearchStrategy[tuple[RatingSystem[Any], Any, Any]]:
    return st.one_of(
        st.tuples(st.just(Glicko2()), glicko_states, glicko_states),
        st.tuples(st.just(Elo()), elo_states, elo_states),
        st.tuples(st.just(OpenSkillPL()), skill_states, skill_states),
    )


@settings(max_examples=200, deadline=None)
@given(case=systems_and_states(), out=results)
def test_swapping_seats_mirrors_a_two_player_game(
    case: tuple[RatingSystem[Any], Any, Any], out: tuple[int, int]
) -> None:
    system, a, b = case
    one = system.rate_period({"a": a, "b": b}, [RatedGame(("a", "b"), out)]).states
    two = system.rate_period({"a": a, "b": b}, [RatedGame(("b", "a"), (out[1], out[0]))]).states
    assert one["a"].rating == pytest.approx(two["a"].rating, abs=1e-9)
    assert one["b"].rating == pytest.approx(two["b"].rating, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(case=systems_and_states(), loser_out=st.integers(0, 2))
def test_more_pieces_out_never_lowers_the_new_rating(
    case: tuple[RatingSystem[Any], Any, Any], loser_out: int
) -> None:
    system, a, b = case
    new = [
        system.rate_period({"a": a, "b": b}, [RatedGame(("a", "b"), (mine, loser_out))])
        .states["a"]
        .rating
        for mine in range(4)
    ]
    assert new == sorted(new)


@settings(max_examples=200, deadline=None)
@given(case=systems_and_states())
def test_whitewash_winner_never_loses_and_loser_never_gains(
    case: tuple[RatingSystem[Any], Any, Any],
) -> None:
    system, a, b = case
    after = system.rate_period({"a": a, "b": b}, [RatedGame(("a", "b"), (3, 0))]).states
    assert after["a"].rating >= a.rating
    assert after["b"].rating <= b.rating


@settings(max_examples=100, deadline=None)
@given(a=skill_states, b=skill_states, out=results)
def test_openskill_by_rank_winner_never_loses(
    a: OpenSkillState, b: OpenSkillState, out: tuple[int, int]
) -> None:
    system = OpenSkillPL(OpenSkillParams(margin_mapping="rank"))
    after = system.rate_period({"a": a, "b": b}, [RatedGame(("a", "b"), out)]).states
    if out[0] > out[1]:
        assert after["a"].mu >= a.mu and after["b"].mu <= b.mu


@settings(max_examples=200, deadline=None)
@given(ra=ratings, rb=ratings, games=st.integers(30, 100), out=results)
def test_elo_is_zero_sum_with_equal_k(
    ra: float, rb: float, games: int, out: tuple[int, int]
) -> None:
    states = {"a": EloState(ra, games), "b": EloState(rb, games)}
    if Elo().k_factor(states["a"], 1) != Elo().k_factor(states["b"], 1):
        return
    after = Elo().rate_period(states, [RatedGame(("a", "b"), out)]).states
    assert after["a"].rating + after["b"].rating == pytest.approx(ra + rb, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(ra=ratings, rb=ratings, rd=st.floats(30, 350), out=results)
def test_glicko2_is_zero_sum_between_equally_certain_players(
    ra: float, rb: float, rd: float, out: tuple[int, int]
) -> None:
    states = {"a": Glicko2State(ra, rd, 0.06), "b": Glicko2State(rb, rd, 0.06)}
    after = Glicko2().rate_period(states, [RatedGame(("a", "b"), out)]).states
    assert after["a"].rating + after["b"].rating == pytest.approx(ra + rb, abs=1e-6)


@settings(max_examples=100, deadline=None)
@given(
    case=systems_and_states(),
    outs=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
)
def test_win_probabilities_are_a_distribution(
    case: tuple[RatingSystem[Any], Any, Any], outs: tuple[int, int, int]
) -> None:
    system, a, b = case
    for seats in (("a", "b"), ("a", "b", "new")):
        chances = system.win_probabilities({"a": a, "b": b}, RatedGame(seats, None))
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 <= chance <= 1.0 for chance in chances)
    # Rating twice from the same input gives the same bits.
    game = RatedGame(("a", "b", "c"), outs)
    first = system.rate_period({"a": a, "b": b}, [game])
    assert first == system.rate_period({"b": b, "a": a}, [game])
