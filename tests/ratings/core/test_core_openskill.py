"""The OpenSkill Plackett-Luce wrapper: margin mappings, teams, win probabilities."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ratings.systems import OpenSkillParams, OpenSkillPL, OpenSkillState, RatedGame
from ratings.systems.openskill_pl import blend_weight, competition_ranks

FAV, DOG = OpenSkillState(27.0, 25 / 3), OpenSkillState(25.0, 25 / 3)


def gain(mapping: str, out: tuple[int, int]) -> float:
    system = OpenSkillPL(OpenSkillParams(margin_mapping=mapping))
    after = system.rate_period({"a": FAV, "b": DOG}, [RatedGame(("a", "b"), out)]).states
    return after["a"].mu - FAV.mu


def test_blend_weight_and_ranks() -> None:
    assert blend_weight([3, 3], 3) == 0.0
    assert blend_weight([4, 2], 3) == pytest.approx(1 / 3)
    assert blend_weight([6, 0], 3) == 1.0
    assert blend_weight([6, 1.5, 1.5], 3) == 1.0  # 3:0:0 in a three-player game
    assert competition_ranks([3.5, 3.5, 2.0]) == [1.0, 1.0, 3.0]


def test_blend_is_monotone_in_the_margin() -> None:
    gains = [gain("blend", (3, k)) for k in (3, 2, 1, 0)]
    assert gains == sorted(gains)
    assert len(set(gains)) == 4
    model = PlackettLuce()
    a, b = model.rating(27, 25 / 3), model.rating(25, 25 / 3)
    won = model.rate([[a], [b]], ranks=[1, 2])[0][0].mu - 27
    drawn = model.rate([[a], [b]], ranks=[1, 1])[0][0].mu - 27
    assert gains[0] == pytest.approx(drawn)
    assert gains[3] == pytest.approx(won)
    assert gains[1] == pytest.approx(won / 3 + 2 * drawn / 3)


def test_rank_mapping_ignores_the_margin() -> None:
    assert gain("rank", (3, 2)) == gain("rank", (3, 0))


def test_margin_mapping_uses_the_package_margin() -> None:
    assert gain("margin", (3, 0)) > gain("margin", (3, 2))


def test_teams_and_multiplayer() -> None:
    system = OpenSkillPL()
    team_game = RatedGame(("a", "b", "c", "d"), (3, 0, 2, 0), ((0, 2), (1, 3)))
    after = system.rate_period({}, [team_game]).states
    assert after["a"].mu == after["c"].mu > 25.0 > after["b"].mu == after["d"].mu
    three = system.rate_period({}, [RatedGame(("x", "y", "z"), (3, 1, 2))]).states
    assert three["x"].mu > three["z"].mu > three["y"].mu


def test_win_probabilities() -> None:
    system = OpenSkillPL()
    equal = system.win_probabilities({}, RatedGame(("a", "b"), None))
    assert equal == pytest.approx([0.5, 0.5])
    three = system.win_probabilities({}, RatedGame(("a", "b", "c"), None))
    assert three == pytest.approx([1 / 3] * 3)
    fav = system.win_probabilities({"a": FAV, "b": DOG}, RatedGame(("a", "b"), None))
    assert fav[0] > 0.5 and sum(fav) == pytest.approx(1.0)
    assert (
        system.pairwise_expectation({"a": FAV, "b": DOG}, RatedGame(("a", "b"), None), 0, 1)
        == fav[0]
    )


def test_games_in_a_period_are_rated_in_order() -> None:
    system = OpenSkillPL()
    games = [RatedGame(("a", "b"), (3, 0)), RatedGame(("a", "c"), (3, 1))]
    result = system.rate_period({}, games)
    assert result.games[1].before["a"] == result.games[0].after["a"]
    assert result.states["a"].mu == result.games[1].after["a"]


def test_json_round_trip() -> None:
    system = OpenSkillPL()
    state = OpenSkillState(30.5, 4.25)
    data = system.state_to_json(state)
    assert data["rating"] == 30.5 and data["ordinal"] == pytest.approx(30.5 - 12.75)
    assert system.state_from_json(data) == state
    assert system.state_from_json({"rating": 20}) == OpenSkillState(20.0, 25 / 3)
    with pytest.raises(ValueError):
        OpenSkillParams(margin_mapping="points")
