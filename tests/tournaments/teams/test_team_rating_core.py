"""Ratings from 2 vs 2 games: a team that played out the round to 6 pieces is rated,
not skipped as a wrong result."""

import pytest

from ratings.systems import Elo, Glicko2, Glicko2State, OpenSkillPL, RatedGame

TEAMS = ((0, 2), (1, 3))


@pytest.mark.parametrize("system", [Glicko2(), Elo(), OpenSkillPL()])
def test_a_team_with_six_pieces_out_is_rated(system) -> None:
    game = RatedGame(("a", "b", "c", "d"), (3, 1, 3, 1), TEAMS)
    assert system.check_game(game) is None


def test_six_to_one_rates_as_the_most_a_team_game_gives() -> None:
    # 6 : 1 and 5 : 0 both score 10 : 0, the most a game gives (docs/scoring.md).
    states = {p: Glicko2State(1500, 200, 0.06) for p in "abcd"}
    six = Glicko2().rate_period(states, [RatedGame(tuple("abcd"), (3, 1, 3, 0), TEAMS)]).states
    five = Glicko2().rate_period(states, [RatedGame(tuple("abcd"), (3, 0, 2, 0), TEAMS)]).states
    assert six["a"] == five["a"] and six["b"] == five["b"]
    assert six["a"].rating > 1500 > six["b"].rating


def test_seven_pieces_for_a_team_is_refused() -> None:
    assert Glicko2().check_game(RatedGame(tuple("abcd"), (4, 0, 3, 0), TEAMS)) is not None
