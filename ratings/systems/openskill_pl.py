"""OpenSkill's Plackett-Luce model (Weng & Lin, JMLR 12, 2011; the ``openskill``
package) for multi-player rankings and teams, with its win probabilities.

Games are rated one after another (the model is online); a period only groups them.
The updates come from plackett_luce.py, our bit-identical copy of the package's update
without its per-call copying; win probabilities still come from the package.

The margin mapping. ``openskill`` turns ``scores`` into ranks, so 4:2, 5:1 and 6:0 give
the same update; its ``margin`` option rescales the gap between the two players' mu
instead, which does nothing between equal players and gives an underdog *less* for a
bigger win (openskill 6.2.0). We therefore offer three mappings (``margin_mapping``):

- ``"blend"`` (default): rate the game twice, once ranked by dropped score and once as
  a draw of all sides, and mix the two results with weight
  ``lambda = (highest - lowest dropped score) / (largest possible spread)``. The largest
  spread is ``target * n / (n - 1)`` for n sides (6 for two players, 4.5 for three).
  For two sides this is exactly the fractional score of Elo and Glicko-2:
  ``K (S - E) = lambda K (1 - E) + (1 - lambda) K (1/2 - E)`` with ``S = (1 + lambda) / 2``,
  so 3:3 is a draw, 4:2 a third of a win, 5:1 two thirds and 6:0 a full win. Cost: two
  model updates for games that are neither a draw nor a whitewash.
- ``"rank"``: ranks only; margins are ignored.
- ``"margin"``: the package's own ``margin`` option with the dropped scores (see above).

The accuracy benchmark (docs/ratings.md) compares them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from . import plackett_luce
from .base import GameChange, PeriodResult, RatedGame, rate_checked_period
from .decompose import game_problem, side_scores, sides
from .jsonio import replace_from_json, to_json

MAPPINGS = ("blend", "rank", "margin")


@dataclass(frozen=True, slots=True)
class OpenSkillParams:
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0
    margin_mapping: str = "blend"
    margin: float = 1.0
    limit_sigma: bool = False
    target: int = 3
    team_target: int = 5

    def __post_init__(self) -> None:
        if self.margin_mapping not in MAPPINGS:
            raise ValueError(f"margin_mapping must be one of {', '.join(MAPPINGS)}")
        if not (self.sigma > 0 and self.beta > 0 and self.kappa > 0):
            raise ValueError("sigma, beta and kappa must be positive")
        if self.tau < 0 or self.margin < 0:
            raise ValueError("tau and margin cannot be negative")
        if self.target < 1 or self.team_target < 1:
            raise ValueError("targets must be at least 1")


@dataclass(frozen=True, slots=True)
class OpenSkillState:
    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not self.sigma > 0:
            raise ValueError("sigma must be positive")

    @property
    def rating(self) -> float:
        """The skill estimate mu (leaderboards may prefer ``ordinal``)."""
        return self.mu

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a conservative rating that keeps newcomers off the top."""
        return self.mu - 3.0 * self.sigma


def blend_weight(scores: Sequence[float], target: int) -> float:
    """Share of the ranked update in the ``"blend"`` mapping (0 = draw, 1 = ranked)."""
    count = len(scores)
    widest = target * count / (count - 1)
    return min(1.0, (max(scores) - min(scores)) / widest)


def competition_ranks(scores: Sequence[float]) -> list[float]:
    """1 + number of sides with a strictly higher score (ties share a rank)."""
    return [1.0 + sum(1 for other in scores if other > score) for score in scores]


class OpenSkillPL:
    """Plackett-Luce, one game at a time: updates by our bit-identical copy of the
    ``openskill`` update (plackett_luce.py), win probabilities by the package."""

    name = "openskill"

    def __init__(self, params: OpenSkillParams | None = None) -> None:
        self.params = params or OpenSkillParams()
        p = self.params
        margin = p.margin if p.margin_mapping == "margin" else 0.0
        self.model = PlackettLuce(
            mu=p.mu,
            sigma=p.sigma,
            beta=p.beta,
            kappa=p.kappa,
            tau=p.tau,
            margin=margin,
            limit_sigma=p.limit_sigma,
        )
        # The same numbers as the package model holds them (it stores floats).
        self.update = plackett_luce.Model(
            beta=float(p.beta),
            kappa=float(p.kappa),
            tau=float(p.tau),
            margin=float(margin),
            limit_sigma=p.limit_sigma,
        )

    def default_state(self) -> OpenSkillState:
        return OpenSkillState(self.params.mu, self.params.sigma)

    def state_to_json(self, state: OpenSkillState) -> dict[str, Any]:
        return {
            "mu": state.mu,
            "ordinal": state.ordinal,
            "rating": state.rating,
            "sigma": state.sigma,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> OpenSkillState:
        # Accept our own output: "rating" and "ordinal" are derived; "rating" stands
        # for mu when mu is missing.
        if not isinstance(data, Mapping):
            raise ValueError("openskill state must be a JSON object")
        fields = {key: data[key] for key in sorted(data) if key not in ("rating", "ordinal")}
        if "mu" not in fields and "rating" in data:
            fields["mu"] = data["rating"]
        return replace_from_json(self.default_state(), fields, "openskill state")

    def params_to_json(self) -> dict[str, Any]:
        return to_json(self.params)

    def check_game(self, game: RatedGame) -> str | None:
        return game_problem(game, self.params.target, self.params.team_target)

    def _teams(
        self, states: Mapping[str, OpenSkillState], game: RatedGame
    ) -> list[list[PlackettLuceRating]]:
        """The package's rating objects, for its predictions."""
        default = self.default_state()
        teams = []
        for side in sides(game):
            team = []
            for seat in side:
                state = states.get(game.seats[seat]) or default
                team.append(self.model.rating(mu=state.mu, sigma=state.sigma))
            teams.append(team)
        return teams

    def _rate_game(
        self, states: Mapping[str, OpenSkillState], game: RatedGame, default: OpenSkillState
    ) -> dict[str, OpenSkillState]:
        p = self.params
        seats = game.seats
        game_sides = sides(game)
        teams = []
        for side in game_sides:
            team = []
            for seat in side:
                state = states.get(seats[seat]) or default
                team.append((state.mu, state.sigma))
            teams.append(team)
        scores = side_scores(game, p.target, p.team_target)
        if p.margin_mapping == "margin":
            rated = plackett_luce.rate(self.update, teams, scores=scores)
            return _collect(seats, game_sides, rated)
        ranks = competition_ranks(scores)
        weight = 1.0
        if p.margin_mapping == "blend":
            target = p.target if game.teams is None else p.team_target
            weight = blend_weight(scores, target)
        if weight >= 1.0:
            return _collect(seats, game_sides, plackett_luce.rate(self.update, teams, ranks))
        if weight <= 0.0:
            # Only a draw of all sides spreads no score, and then the ranks are all
            # equal: the ranked update is this same draw.
            drawn = plackett_luce.rate(self.update, teams, [1.0] * len(teams))
            return _collect(seats, game_sides, drawn)
        ranked, drawn = plackett_luce.rate_ranked_and_drawn(self.update, teams, ranks)
        return _blended(seats, game_sides, ranked, drawn, weight)

    def rate_period(
        self, states: Mapping[str, OpenSkillState], games: Sequence[RatedGame]
    ) -> PeriodResult[OpenSkillState]:
        return rate_checked_period(self, states, games)

    def rate_checked(
        self, states: Mapping[str, OpenSkillState], games: Sequence[RatedGame]
    ) -> PeriodResult[OpenSkillState]:
        current = dict(states)
        changes = []
        default = self.default_state()
        for index, game in enumerate(games):
            start = {player: (current.get(player) or default).rating for player in game.seats}
            new = self._rate_game(current, game, default)
            current.update(new)
            changes.append(
                GameChange(index, start, {player: new[player].rating for player in game.seats})
            )
        return PeriodResult(current, tuple(changes))

    def win_probabilities(
        self, states: Mapping[str, OpenSkillState], game: RatedGame
    ) -> list[float]:
        return [float(chance) for chance in self.model.predict_win(self._teams(states, game))]

    def pairwise_expectation(
        self, states: Mapping[str, OpenSkillState], game: RatedGame, a: int, b: int
    ) -> float:
        teams = self._teams(states, game)
        return float(self.model.predict_win([teams[a], teams[b]])[0])


def _collect(
    seats: Sequence[str],
    game_sides: Sequence[Sequence[int]],
    rated: list[list[plackett_luce.Rating]],
) -> dict[str, OpenSkillState]:
    """The new states by player; float() because limit_sigma hands back a player's own
    sigma, which may have been given as an int."""
    result = {}
    for side, team in zip(game_sides, rated, strict=True):
        for seat, (mu, sigma) in zip(side, team, strict=True):
            result[seats[seat]] = OpenSkillState(float(mu), float(sigma))
    return result


def _blended(
    seats: Sequence[str],
    game_sides: Sequence[Sequence[int]],
    ranked: list[list[plackett_luce.Rating]],
    drawn: list[list[plackett_luce.Rating]],
    weight: float,
) -> dict[str, OpenSkillState]:
    """``weight`` of the ranked update and the rest of the draw, for every player."""
    result = {}
    for side, won, tied in zip(game_sides, ranked, drawn, strict=True):
        for seat, (win_mu, win_sigma), (draw_mu, draw_sigma) in zip(side, won, tied, strict=True):
            result[seats[seat]] = OpenSkillState(
                weight * win_mu + (1.0 - weight) * draw_mu,
                weight * win_sigma + (1.0 - weight) * draw_sigma,
            )
    return result
