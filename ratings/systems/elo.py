"""Elo with FIDE's development coefficients, because players know it.

FIDE Handbook B.02, Rating Regulations effective from 1 March 2024:
- 8.3.1: "A difference in rating of more than 400 points shall be counted for rating
  purposes as though it were a difference of 400 points."
- 8.3.2: the change for a tournament or rating period is K times the sum over its games
  of (score - expected score), all against the ratings from before the period.
- 8.3.3: "K = 40 for a player new to the rating list until they have completed events
  with at least 30 games. K = 20 as long as a player's rating remains under 2400.
  K = 10 once a player's published rating has reached 2400 and remains at that level
  subsequently, even if the rating drops below 2400." And: "If the number of games (n)
  for a player on any list for a rating period multiplied by K ... exceeds 700, then K
  shall be the largest whole number such that K x n does not exceed 700."

Deliberate differences: the expected score is the logistic 1 / (1 + 10 ** (-D / 400))
rather than FIDE's table 8.1.2 (a normal curve; 0.92 against 0.91 at D = 400); the
under-18 rule (K = 40 below 2300) is left out because we keep no birth dates; ratings
are not rounded to whole numbers (8.3.4), so replays stay exact. Scores are fractional
(dropped score / (2 * target)); games of more than two sides are rated as all their
pairwise encounters (each counts as one of FIDE's n), team opponents weighing
1/team size. "Games" for the K = 40 rule counts games, not encounters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import seat
from .base import PeriodResult, RatedGame, rate_checked_period
from .decompose import SCORE_MAPPINGS, encounters, game_problem, side_mean, sides
from .history import chain_changes
from .jsonio import replace_from_json, to_json
from .probability import luce_first


@dataclass(frozen=True, slots=True)
class EloParams:
    initial_rating: float = 1500.0
    k_new: int = 40
    new_games: int = 30
    k_standard: int = 20
    k_top: int = 10
    top_rating: float = 2400.0
    period_cap: int = 700
    max_difference: float = 400.0
    target: int = 3
    team_target: int = 5
    seat_strength: float = 0.0
    score_mapping: str = "dropped"

    def __post_init__(self) -> None:
        if self.score_mapping not in SCORE_MAPPINGS:
            raise ValueError(f"score_mapping must be one of {', '.join(SCORE_MAPPINGS)}")
        if min(self.k_new, self.k_standard, self.k_top) <= 0 or self.period_cap <= 0:
            raise ValueError("K factors and the period cap must be positive")
        if self.new_games < 0 or not self.max_difference > 0:
            raise ValueError("new_games must be >= 0 and max_difference > 0")
        if self.target < 1 or self.team_target < 1:
            raise ValueError("targets must be at least 1")


@dataclass(frozen=True, slots=True)
class EloState:
    rating: float
    games: int = 0
    reached_top: bool = False

    def __post_init__(self) -> None:
        if self.games < 0:
            raise ValueError("games cannot be negative")


def expected(difference: float, max_difference: float = 400.0) -> float:
    """Expected score of the player ``difference`` points above her opponent."""
    clipped = min(max(difference, -max_difference), max_difference)
    return 1.0 / (1.0 + math.pow(10.0, -clipped / 400.0))


class Elo:
    """FIDE-style Elo over rating periods."""

    name = "elo"

    def __init__(self, params: EloParams | None = None) -> None:
        self.params = params or EloParams()

    def default_state(self) -> EloState:
        return EloState(self.params.initial_rating)

    def state_to_json(self, state: EloState) -> dict[str, Any]:
        return to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> EloState:
        return replace_from_json(self.default_state(), data, "elo state")

    def params_to_json(self) -> dict[str, Any]:
        return to_json(self.params)

    def check_game(self, game: RatedGame) -> str | None:
        return game_problem(game, self.params.target, self.params.team_target)

    def k_factor(self, state: EloState, encounters_in_period: float) -> int:
        """FIDE 8.3.3 for a player starting a period with ``state``."""
        p = self.params
        if state.games < p.new_games:
            k = p.k_new
        elif state.reached_top or state.rating >= p.top_rating:
            k = p.k_top
        else:
            k = p.k_standard
        if k * encounters_in_period > p.period_cap:
            # Largest whole number with K x n <= cap (encounters may be fractional in
            # team games, hence floor of a division rather than integer division).
            k = max(1, math.floor(p.period_cap / encounters_in_period))
        return k

    def _offsets(self, ratings: Sequence[float], game: RatedGame) -> list[float]:
        if not seat.applies(game):
            return [0.0] * len(ratings)
        return seat.seat_offsets(ratings, self.params.seat_strength)

    def rate_period(
        self, states: Mapping[str, EloState], games: Sequence[RatedGame]
    ) -> PeriodResult[EloState]:
        return rate_checked_period(self, states, games)

    def rate_checked(
        self, states: Mapping[str, EloState], games: Sequence[RatedGame]
    ) -> PeriodResult[EloState]:
        p = self.params
        default = self.default_state()
        # The period's players in order of first appearance (a fixed order).
        before: dict[str, EloState] = {}
        for game in games:
            for player in game.seats:
                if player not in before:
                    before[player] = states.get(player) or default
        # Per player: (game index, weight, score - expected), in game and seat order.
        terms: dict[str, list[tuple[int, float, float]]] = {player: [] for player in before}
        played: dict[str, int] = dict.fromkeys(before, 0)
        with_seats = p.seat_strength != 0.0
        widest = p.max_difference
        power = math.pow
        for index, game in enumerate(games):
            seats = game.seats
            ratings = [before[player].rating for player in seats]
            offsets = None
            if with_seats and seat.applies(game):
                offsets = seat.seat_offsets(ratings, p.seat_strength)
            for enc in encounters(game, p.target, p.team_target, p.score_mapping):
                if offsets is None:
                    diff = ratings[enc.seat] - ratings[enc.opponent]
                else:
                    diff = (
                        ratings[enc.seat]
                        + offsets[enc.seat]
                        - ratings[enc.opponent]
                        - offsets[enc.opponent]
                    )
                # expected(diff, widest), inlined: this loop runs for every encounter.
                clipped = -widest if diff < -widest else widest if diff > widest else diff
                chance = 1.0 / (1.0 + power(10.0, -clipped / 400.0))
                terms[seats[enc.seat]].append((index, enc.weight, enc.score - chance))
            for player in seats:
                played[player] += 1
        after = dict(states)
        shares: dict[str, dict[int, float]] = {}
        for player, rows in terms.items():
            state = before[player]
            k = self.k_factor(state, sum(weight for _, weight, _ in rows))
            per_game: dict[int, float] = {}
            change = 0.0
            for index, weight, surprise in rows:
                share = k * weight * surprise
                per_game[index] = per_game.get(index, 0.0) + share
                change += share
            rating = state.rating + change
            after[player] = EloState(
                rating, state.games + played[player], state.reached_top or rating >= p.top_rating
            )
            shares[player] = per_game
        start = {player: state.rating for player, state in before.items()}
        return PeriodResult(after, chain_changes(games, start, after, shares))

    def _seat_expectation(
        self, states: Mapping[str, EloState], game: RatedGame
    ) -> list[list[float]]:
        ratings = [(states.get(player) or self.default_state()).rating for player in game.seats]
        offsets = self._offsets(ratings, game)
        size = len(ratings)
        return [
            [
                expected(
                    ratings[i] + offsets[i] - ratings[j] - offsets[j], self.params.max_difference
                )
                for j in range(size)
            ]
            for i in range(size)
        ]

    def pairwise_expectation(
        self, states: Mapping[str, EloState], game: RatedGame, a: int, b: int
    ) -> float:
        table = self._seat_expectation(states, game)
        all_sides = sides(game)
        return side_mean(table, all_sides[a], all_sides[b])

    def win_probabilities(self, states: Mapping[str, EloState], game: RatedGame) -> list[float]:
        table = self._seat_expectation(states, game)
        all_sides = sides(game)
        return luce_first(len(all_sides), lambda a, b: side_mean(table, all_sides[a], all_sides[b]))
