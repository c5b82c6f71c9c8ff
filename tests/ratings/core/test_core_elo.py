"""FIDE-style Elo: expected scores, K factors, the 700 rule, fractional scores."""

from __future__ import annotations

import pytest

from ratings.systems import Elo, EloParams, EloState, RatedGame
from ratings.systems.elo import expected


def test_expected_score_and_the_400_point_rule() -> None:
    assert expected(0) == 0.5
    assert expected(400) == pytest.approx(1 / 1.1)
    assert expected(800) == expected(400)
    assert expected(-100) == pytest.approx(1 - expected(100))


@pytest.mark.parametrize(
    ("state", "k"),
    [
        (EloState(1500, games=0), 40),
        (EloState(2450, games=29), 40),
        (EloState(1500, games=30), 20),
        (EloState(2399.9, games=100), 20),
        (EloState(2400, games=100), 10),
        (EloState(2300, games=100, reached_top=True), 10),
    ],
)
def test_fide_k_factors(state: EloState, k: int) -> None:
    assert Elo().k_factor(state, 1) == k


def test_k_times_games_capped_at_700() -> None:
    assert Elo().k_factor(EloState(1500), 17.5) == 40
    assert Elo().k_factor(EloState(1500), 20) == 35
    assert Elo().k_factor(EloState(1500, games=50), 36) == 19


def test_two_player_vectors() -> None:
    system = Elo()
    # Two newcomers, 6:0 and 4:2.
    whitewash = system.rate_period({}, [RatedGame(("a", "b"), (3, 0))]).states
    assert whitewash["a"].rating == 1520.0 and whitewash["b"].rating == 1480.0
    narrow = system.rate_period({}, [RatedGame(("a", "b"), (3, 2))]).states
    assert narrow["a"].rating == pytest.approx(1500 + 40 * (2 / 3 - 1 / 2))
    # Established 2000 scores 5:1 against 2100.
    states = {"a": EloState(2000, games=50), "b": EloState(2100, games=50)}
    after = system.rate_period(states, [RatedGame(("a", "b"), (3, 1))]).states
    e = 1 / (1 + 10 ** (100 / 400))
    assert after["a"].rating == pytest.approx(2000 + 20 * (5 / 6 - e))
    assert after["a"].rating - 2000 == pytest.approx(2100 - after["b"].rating)
    assert after["a"].games == 51


def test_period_uses_ratings_from_before_the_period() -> None:
    games = [RatedGame(("a", "b"), (3, 0)), RatedGame(("a", "b"), (3, 0))]
    after = Elo().rate_period({}, games)
    assert after.states["a"].rating == 1540.0  # both games expected 0.5
    assert [c.after["a"] for c in after.games] == [1520.0, 1540.0]


def test_reaching_2400_sticks() -> None:
    states = {"a": EloState(2395, games=40), "b": EloState(2395, games=40)}
    up = Elo().rate_period(states, [RatedGame(("a", "b"), (3, 0))]).states
    assert up["a"].reached_top and not up["b"].reached_top
    down = Elo().rate_period(up, [RatedGame(("a", "b"), (0, 3))]).states
    assert down["a"].rating < 2400 and down["a"].reached_top
    assert Elo().k_factor(down["a"], 1) == 10


def test_three_players_and_seat_term() -> None:
    after = Elo().rate_period({}, [RatedGame(("x", "y", "z"), (3, 1, 2))]).states
    assert after["x"].rating == pytest.approx(1500 + 40 * (5 / 6 + 4 / 6 - 1))
    assert after["z"].rating == pytest.approx(1500.0)
    assert sum(s.rating for s in after.values()) == pytest.approx(4500.0)
    states = {"s": EloState(1900, 40), "l": EloState(1500, 40), "e": EloState(1500, 40)}
    seated = Elo(EloParams(seat_strength=0.2)).rate_period(
        states, [RatedGame(("s", "l", "e"), (2, 2, 2))]
    )
    assert seated.states["l"].rating > seated.states["e"].rating


def test_json() -> None:
    system = Elo()
    assert system.state_from_json({"rating": 2000, "games": 12}) == EloState(2000.0, 12, False)
    with pytest.raises(ValueError):
        system.state_from_json({"games": 1.5})
    assert system.params_to_json()["k_new"] == 40
