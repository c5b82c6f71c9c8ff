"""Glicko-2: Glickman's example, vectors where the volatility moves, and the Pentagame
decomposition (fractional scores, three players, teams, seat term)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import Glicko2, Glicko2Params, Glicko2State, RatedGame
from ratings.systems.glicko2 import SCALE, Outcome, update


def reference_update(
    rating: float,
    rd: float,
    volatility: float,
    opponents: Sequence[tuple[float, float, float]],
    tau: float,
) -> tuple[float, float, float]:
    """(r', RD', sigma') after one period against (rating, rd, score) opponents."""
    mu = (rating - 1500) / 173.7178
    phi = rd / 173.7178
    results = [((r - 1500) / 173.7178, d / 173.7178, s) for r, d, s in opponents]

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p**2 / math.pi**2)

    def e(m: float, mj: float, pj: float) -> float:
        return 1 / (1 + math.exp(-g(pj) * (m - mj)))

    v = 1 / sum(g(pj) ** 2 * e(mu, mj, pj) * (1 - e(mu, mj, pj)) for mj, pj, _ in results)
    delta = v * sum(g(pj) * (s - e(mu, mj, pj)) for mj, pj, s in results)
    a = math.log(volatility**2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta**2 - phi**2 - v - math.exp(x))) / (
            2 * (phi**2 + v + math.exp(x)) ** 2
        ) - (x - a) / tau**2

    # f is decreasing; bracket its root generously, then bisect.
    low, high = a - 1.0, a + 1.0
    while f(low) < 0:
        low -= 1.0
    while f(high) > 0:
        high += 1.0
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    sigma = math.exp((low + high) / 4)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * sum(g(pj) * (s - e(mu, mj, pj)) for mj, pj, s in results)
    return 173.7178 * mu_new + 1500, 173.7178 * phi_new, sigma


# A pairwise share of exactly 1, 0.5 or 0 (pieces out for a two-player game).
WIN, LOSS = (3, 0), (0, 3)


def rate_one(
    player: Glicko2State, opponents: list[tuple[Glicko2State, tuple[int, int]]], tau: float = 0.5
) -> Glicko2State:
    system = Glicko2(Glicko2Params(tau=tau))
    states = {"me": player}
    games = []
    for number, (state, out) in enumerate(opponents):
        states[f"o{number}"] = state
        games.append(RatedGame(("me", f"o{number}"), out))
    return system.rate_period(states, games).states["me"]


def test_glickman_example() -> None:
    after = rate_one(
        Glicko2State(1500, 200, 0.06),
        [
            (Glicko2State(1400, 30, 0.06), WIN),
            (Glicko2State(1550, 100, 0.06), LOSS),
            (Glicko2State(1700, 300, 0.06), LOSS),
        ],
    )
    # The paper's figures (it rounds intermediate values, hence 1464.06 for 1464.0507),
    # then the full-precision ones.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.rating == pytest.approx(1464.0507, abs=1e-4)
    assert after.rd == pytest.approx(151.5165, abs=1e-4)
    assert after.volatility == pytest.approx(0.0599960, abs=1e-7)


def test_volatility_rises_after_a_run_of_upsets() -> None:
    # Ten losses of a 2000 player to a 1600 player: sigma moves from 0.06 to 0.0609.
    after = rate_one(Glicko2State(2000, 60, 0.06), [(Glicko2State(1600, 50, 0.06), LOSS)] * 10)
    expected = reference_update(2000, 60, 0.06, [(1600, 50, 0.0)] * 10, 0.5)
    assert after.volatility > 0.0609
    assert (after.rating, after.rd, after.volatility) == pytest.approx(expected, rel=1e-7)
    # The same vector as published by other correct implementations (mu^2 instead of
    # phi^2 in step 5 gives 0.0600162 here).
    assert after.rating == pytest.approx(1826.2795, abs=1e-4)
    assert after.rd == pytest.approx(58.0515, abs=1e-4)
    assert after.volatility == pytest.approx(0.0609163, abs=1e-7)


def test_fractional_scores_vector() -> None:
    # 4:2 against 1700, 3:3 against 1950 and 2:4 against 1600.
    after = rate_one(
        Glicko2State(1800, 120, 0.06),
        [
            (Glicko2State(1700, 80, 0.06), (3, 2)),
            (Glicko2State(1950, 150, 0.06), (3, 3)),
            (Glicko2State(1600, 60, 0.06), (2, 3)),
        ],
    )
    expected = reference_update(
        1800, 120, 0.06, [(1700, 80, 2 / 3), (1950, 150, 0.5), (1600, 60, 1 / 3)], 0.5
    )
    assert (after.rating, after.rd, after.volatility) == pytest.approx(expected, rel=1e-7)
    assert after.rating == pytest.approx(1785.72, abs=0.01)


def test_volatility_falls_when_results_match_expectations() -> None:
    before = Glicko2State(1500, 80, 0.09)
    opponents = [(Glicko2State(1500, 80, 0.06), (3, 3))] * 8
    after = rate_one(before, opponents, tau=0.3)
    expected = reference_update(1500, 80, 0.09, [(1500, 80, 0.5)] * 8, 0.3)
    assert after.volatility < 0.09
    assert (after.rating, after.rd, after.volatility) == pytest.approx(expected, rel=1e-7, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(
    rating=st.floats(1000, 2400),
    rd=st.floats(30, 350),
    volatility=st.floats(0.03, 0.2),
    tau=st.sampled_from([0.3, 0.5, 0.75, 1.2]),
    opponents=st.lists(
        st.tuples(
            st.floats(1000, 2400),
            st.floats(30, 350),
            st.sampled_from([0, 1 / 6, 1 / 3, 1 / 2, 2 / 3, 5 / 6, 1]),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_illinois_agrees_with_bisection(
    rating: float,
    rd: float,
    volatility: float,
    tau: float,
    opponents: list[tuple[float, float, float]],
) -> None:
    outcomes = [Outcome((r - 1500) / SCALE, d / SCALE, s) for r, d, s in opponents]
    result = update((rating - 1500) / SCALE, rd / SCALE, volatility, outcomes, tau, 1e-9, math.inf)
    ref_rating, ref_rd, ref_sigma = reference_update(rating, rd, volatility, opponents, tau)
    assert result.sigma == pytest.approx(ref_sigma, rel=1e-6)
    assert 1500 + SCALE * result.mu == pytest.approx(ref_rating, abs=1e-5)
    assert SCALE * result.phi == pytest.approx(ref_rd, abs=1e-5)


def test_players_who_do_not_play_only_grow_their_deviation() -> None:
    system = Glicko2()
    idle = Glicko2State(1600, 100, 0.06)
    after = system.rate_period({"idle": idle}, [RatedGame(("a", "b"), (3, 1))]).states["idle"]
    assert after.rating == 1600
    assert after.volatility == 0.06
    assert after.rd == pytest.approx(SCALE * math.sqrt((100 / SCALE) ** 2 + 0.06**2))
    capped = system.rate_period(
        {"old": Glicko2State(1600, 349.9, 0.06)}, [RatedGame(("a", "b"), (3, 1))]
    )
    assert capped.states["old"].rd == 350.0


def test_new_players_start_from_the_defaults() -> None:
    result = Glicko2().rate_period({}, [RatedGame(("a", "b"), (3, 3))]).states
    assert result["a"].rating == result["b"].rating == 1500.0
    assert result["a"].rd < 350.0


def test_three_player_game_is_its_pairwise_encounters() -> None:
    # 3:1:2 pieces out: x beats y 5/6 and z 4/6; z beats y 4/6.
    states = {p: Glicko2State(1500, 200, 0.06) for p in "xyz"}
    three = Glicko2().rate_period(states, [RatedGame(("x", "y", "z"), (3, 1, 2))]).states
    pairs = (
        Glicko2()
        .rate_period(
            states,
            [
                RatedGame(("x", "y"), (3, 1)),
                RatedGame(("x", "z"), (3, 2)),
                RatedGame(("z", "y"), (2, 1)),
            ],
        )
        .states
    )
    for player in "xyz":
        assert three[player].rating == pytest.approx(pairs[player].rating, abs=1e-9)
    assert three["z"].rating == pytest.approx(1500.0, abs=1e-9)


def test_team_game_counts_like_one_game_per_opposing_team() -> None:
    states = {p: Glicko2State(1500, 200, 0.06) for p in "abcd"}
    team = (
        Glicko2()
        .rate_period(states, [RatedGame(("a", "b", "c", "d"), (3, 0, 2, 0), ((0, 2), (1, 3)))])
        .states
    )
    single = Glicko2().rate_period(states, [RatedGame(("a", "b"), (3, 0))]).states
    assert team["a"] == team["c"] == single["a"]
    assert team["b"] == team["d"] == single["b"]


def test_per_game_changes_add_up_to_the_period_change() -> None:
    states = {
        "a": Glicko2State(1500, 200, 0.06),
        "b": Glicko2State(1600, 80, 0.06),
        "c": Glicko2State(1450, 150, 0.06),
    }
    games = [
        RatedGame(("a", "b"), (3, 2)),
        RatedGame(("b", "c", "a"), (3, 3, 1)),
        RatedGame(("c", "a"), (0, 3)),
    ]
    result = Glicko2().rate_period(states, games)
    assert [change.index for change in result.games] == [0, 1, 2]
    assert result.games[0].before["a"] == 1500.0
    assert result.games[1].before["a"] == result.games[0].after["a"]
    assert result.games[2].after["a"] == result.states["a"].rating
    assert result.games[0].after["a"] > 1500.0  # 4:2 against a stronger player
    assert result.games[1].after["a"] < result.games[1].before["a"]


def test_seat_term_rewards_scoring_after_a_strong_player() -> None:
    # Same table, same 2:2:2 result; "late" moves right after the strong player.
    states = {
        "strong": Glicko2State(1900, 60, 0.06),
        "late": Glicko2State(1500, 60, 0.06),
        "early": Glicko2State(1500, 60, 0.06),
    }
    game = RatedGame(("strong", "late", "early"), (2, 2, 2))
    plain = Glicko2(Glicko2Params(seat_strength=0.0)).rate_period(states, [game]).states
    seated = Glicko2(Glicko2Params(seat_strength=0.2)).rate_period(states, [game]).states
    assert plain["late"].rating == pytest.approx(plain["early"].rating)
    assert seated["late"].rating > seated["early"].rating
    # The term does not touch two-player games.
    duel = RatedGame(("strong", "late"), (3, 2))
    assert (
        Glicko2(Glicko2Params(seat_strength=0.2)).rate_period(states, [duel]).states
        == Glicko2().rate_period(states, [duel]).states
    )


def test_win_probabilities() -> None:
    system = Glicko2()
    states = {
        "a": Glicko2State(1700, 50, 0.06),
        "b": Glicko2State(1500, 50, 0.06),
        "c": Glicko2State(1500, 50, 0.06),
    }
    duel = system.win_probabilities(states, RatedGame(("a", "b"), None))
    phi = math.hypot(50, 50) / SCALE
    g = 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)
    assert duel[0] == pytest.approx(1 / (1 + math.exp(-g * 200 / SCALE)))
    assert sum(duel) == pytest.approx(1.0)
    three = system.win_probabilities(states, RatedGame(("a", "b", "c"), None))
    assert sum(three) == pytest.approx(1.0)
    assert three[0] > 0.5 and three[1] == pytest.approx(three[2])


def test_json_round_trip_and_strictness() -> None:
    system = Glicko2()
    state = Glicko2State(1612.5, 88.0, 0.061)
    assert system.state_from_json(system.state_to_json(state)) == state
    assert system.state_from_json({"rating": 1400}) == Glicko2State(1400.0, 350.0, 0.06)
    with pytest.raises(ValueError):
        system.state_from_json({"rating": 1400, "deviation": 3})
    with pytest.raises(ValueError):
        system.state_from_json({"rd": -1})
    with pytest.raises(ValueError):
        Glicko2Params(tau=0)
