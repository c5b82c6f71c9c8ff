"""Our Plackett-Luce update against the ``openskill`` package's, bit for bit.

Floats are compared by their hex form, so even 0.0 and -0.0 must agree. No database.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ratings.systems.plackett_luce import (
    Model,
    Rating,
    rate,
    rate_ranked_and_drawn,
    score_ranks,
)

Bits = list[list[tuple[str, str]]]


def bits(teams: Sequence[Sequence[Rating]]) -> Bits:
    return [[(float(mu).hex(), float(sigma).hex()) for mu, sigma in team] for team in teams]


def package_rate(model: Model, teams: Sequence[Sequence[Rating]], **given: Any) -> Bits:
    package = PlackettLuce(
        beta=model.beta,
        kappa=model.kappa,
        tau=model.tau,
        margin=model.margin,
        limit_sigma=model.limit_sigma,
    )
    objects = [[package.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    rated = package.rate(objects, **given)
    return bits([[(rating.mu, rating.sigma) for rating in team] for team in rated])


# Sensible ratings and parameters, with the defaults and the edge values we use often.
ratings = st.tuples(st.floats(-50.0, 100.0), st.floats(0.05, 15.0))
models = st.builds(
    Model,
    beta=st.sampled_from([25.0 / 6.0]) | st.floats(0.5, 10.0),
    kappa=st.sampled_from([0.0001]) | st.floats(1e-6, 0.9),
    tau=st.sampled_from([25.0 / 300.0, 0.0]) | st.floats(0.0, 2.0),
    margin=st.sampled_from([0.0, 1.0]) | st.floats(0.05, 5.0),
    limit_sigma=st.booleans(),
)
teams_of_any_size = st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=5)
single_players = st.lists(st.lists(ratings, min_size=1, max_size=1), min_size=2, max_size=4)


@st.composite
def ranks_for(draw: st.DrawFn, count: int) -> list[float]:
    """Places 1..count with ties, or fractional ranks (the package truncates them)."""
    whole = st.lists(st.integers(1, count).map(float), min_size=count, max_size=count)
    fractional = st.lists(st.floats(0.0, 4.0), min_size=count, max_size=count)
    return draw(whole | fractional)


@settings(max_examples=400, deadline=None)
@given(model=models, teams=teams_of_any_size, data=st.data())
def test_ranks_give_the_packages_floats(
    model: Model, teams: list[list[Rating]], data: st.DataObject
) -> None:
    ranks = data.draw(ranks_for(len(teams)))
    assert bits(rate(model, teams, ranks)) == package_rate(model, teams, ranks=ranks)


@settings(max_examples=400, deadline=None)
@given(model=models, teams=single_players, data=st.data())
def test_single_players_give_the_packages_floats(
    model: Model, teams: list[list[Rating]], data: st.DataObject
) -> None:
    # The shortcuts for two and three players, every pattern of ties.
    ranks = data.draw(ranks_for(len(teams)))
    assert bits(rate(model, teams, ranks)) == package_rate(model, teams, ranks=ranks)


@settings(max_examples=300, deadline=None)
@given(model=models, teams=teams_of_any_size, data=st.data())
def test_scores_and_margin_give_the_packages_floats(
    model: Model, teams: list[list[Rating]], data: st.DataObject
) -> None:
    count = len(teams)
    scores = data.draw(
        st.lists(st.integers(0, 6).map(float) | st.floats(0.0, 6.0), min_size=count, max_size=count)
    )
    assert bits(rate(model, teams, scores=scores)) == package_rate(model, teams, scores=scores)


@settings(max_examples=300, deadline=None)
@given(model=models, teams=teams_of_any_size | single_players, data=st.data())
def test_ranked_and_drawn_give_the_packages_two_updates(
    model: Model, teams: list[list[Rating]], data: st.DataObject
) -> None:
    ranks = data.draw(ranks_for(len(teams)))
    ranked, drawn = rate_ranked_and_drawn(model, teams, ranks)
    assert bits(ranked) == package_rate(model, teams, ranks=ranks)
    assert bits(drawn) == package_rate(model, teams, ranks=[1.0] * len(teams))


@settings(max_examples=100, deadline=None)
@given(model=models, teams=teams_of_any_size)
def test_no_ranks_means_the_given_order(model: Model, teams: list[list[Rating]]) -> None:
    assert bits(rate(model, teams)) == package_rate(model, teams)


@pytest.mark.parametrize(
    "ranks",
    sorted(set(itertools.product([1.0, 2.0, 3.0], repeat=3))),
)
def test_every_finish_of_three_players(ranks: tuple[float, ...]) -> None:
    teams = [[(27.0, 8.0)], [(25.0, 25.0 / 3.0)], [(19.5, 3.0)]]
    for model in (Model(), Model(tau=0.0, limit_sigma=True), Model(beta=2.0, kappa=0.5)):
        assert bits(rate(model, teams, list(ranks))) == package_rate(
            model, teams, ranks=list(ranks)
        )


def test_a_two_player_game() -> None:
    model = Model()
    before = [[(25.0, 25.0 / 3.0)], [(25.0, 25.0 / 3.0)]]
    (winner,), (loser,) = rate(model, before, [1.0, 2.0])
    assert winner[0] - 25.0 == 25.0 - loser[0] > 0.0
    assert winner[1] == loser[1] < 25.0 / 3.0
    assert before == [[(25.0, 25.0 / 3.0)], [(25.0, 25.0 / 3.0)]]
    # Swapping the seats swaps the results.
    assert rate(model, before, [2.0, 1.0]) == [[loser], [winner]]


def test_a_draw_between_equals_moves_no_mu() -> None:
    (first,), (second,) = rate(Model(), [[(30.0, 5.0)], [(30.0, 5.0)]], [1.0, 1.0])
    assert first == second
    assert first[0] == 30.0 and first[1] < 5.0


def test_teams_keep_their_shape_and_order() -> None:
    teams = [[(20.0, 6.0), (30.0, 2.0)], [(26.0, 4.0)], [(24.0, 8.0), (22.0, 7.0), (28.0, 1.0)]]
    rated = rate(Model(), teams, [3.0, 1.0, 2.0])
    assert [len(team) for team in rated] == [2, 1, 3]
    assert rated[1][0][0] > 26.0 and all(
        mu < before[0] for (mu, _), before in zip(rated[0], teams[0], strict=True)
    )


def test_limit_sigma_never_raises_sigma() -> None:
    # A large tau would widen sigma beyond what one game shrinks it by.
    teams = [[(25.0, 1.0)], [(25.0, 1.0)]]
    loose = rate(Model(tau=3.0), teams, [1.0, 2.0])
    limited = rate(Model(tau=3.0, limit_sigma=True), teams, [1.0, 2.0])
    assert loose[0][0][1] > 1.0
    assert limited[0][0] == (loose[0][0][0], 1.0)


def test_score_ranks() -> None:
    assert score_ranks([3.0, 1.0, 3.0, 0.0]) == [0, 2, 0, 3]
    assert score_ranks([2.0, 2.0]) == [0, 0]


@pytest.mark.parametrize(
    "teams, given",
    [
        ([[(25.0, 8.0)]], {}),
        ([[(25.0, 8.0)], []], {}),
        ([[(25.0, 8.0)], [(25.0, 8.0)]], {"ranks": [1.0, 2.0], "scores": [3.0, 1.0]}),
        ([[(25.0, 8.0)], [(25.0, 8.0)]], {"ranks": [1.0, 2.0, 3.0]}),
        ([[(25.0, 8.0)], [(25.0, 8.0)]], {"scores": [1.0]}),
    ],
)
def test_refuses_what_the_package_refuses(
    teams: list[list[Rating]], given: dict[str, list[float]]
) -> None:
    with pytest.raises(ValueError):
        rate(Model(), teams, **given)
    with pytest.raises(ValueError):
        package_rate(Model(), teams, **given)
