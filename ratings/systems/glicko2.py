"""Glicko-2, as in Mark E. Glickman, "Example of the Glicko-2 system" (glicko.net,
glicko2.pdf), steps 1-8, with the Illinois iteration for the new volatility (step 5).

Written here rather than taken from the ``glicko2`` package, whose volatility step uses
the rating (mu squared) where the deviation (phi squared) belongs.

Pentagame specifics:
- a game's result is a fractional score, the pairwise dropped score / (2 * target)
  (decompose.py), which Glicko-2 accepts as s in [0, 1];
- games of three or more sides count as every pairwise encounter; in team games each
  opponent weighs 1/size of her team. Weights enter v and Delta as weights of the
  log-likelihood: v = 1 / sum w g^2 E (1 - E), Delta = v sum w g (s - E); with all
  weights 1 this is the paper's formula;
- an optional seat-order term shifts effective strengths in games of three or more
  players (seat.py);
- the deviation before a period, phi* = sqrt(phi^2 + sigma'^2), is capped at
  ``max_rd`` (as Glicko-1 caps RD at 350), so long absences cannot push a player past
  a newcomer's uncertainty.
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

#: Glickman's step 2: mu = (r - CENTER) / SCALE, phi = RD / SCALE.
CENTER = 1500.0
SCALE = 173.7178
#: Safety net for the volatility iteration; it converges in well under 20 steps.
MAX_ITERATIONS = 100


@dataclass(frozen=True, slots=True)
class Glicko2Params:
    tau: float = 0.5
    initial_rating: float = 1500.0
    initial_rd: float = 350.0
    initial_volatility: float = 0.06
    max_rd: float = 350.0
    epsilon: float = 0.000001
    target: int = 3
    team_target: int = 5
    seat_strength: float = 0.0
    score_mapping: str = "dropped"

    def __post_init__(self) -> None:
        if self.score_mapping not in SCORE_MAPPINGS:
            raise ValueError(f"score_mapping must be one of {', '.join(SCORE_MAPPINGS)}")
        if not self.tau > 0:
            raise ValueError("tau must be positive")
        if not (self.initial_rd > 0 and self.max_rd > 0 and self.initial_volatility > 0):
            raise ValueError("deviations and volatility must be positive")
        if not self.epsilon > 0:
            raise ValueError("epsilon must be positive")
        if self.target < 1 or self.team_target < 1:
            raise ValueError("targets must be at least 1")


@dataclass(frozen=True, slots=True)
class Glicko2State:
    rating: float
    rd: float
    volatility: float

    def __post_init__(self) -> None:
        if not (self.rd > 0 and self.volatility > 0):
            raise ValueError("rd and volatility must be positive")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result on the Glicko-2 scale: the opponent's (effective) mu and phi."""

    opponent_mu: float
    opponent_phi: float
    score: float
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Update:
    """A player's new mu, phi, sigma, and each outcome's additive share of mu' - mu."""

    mu: float
    phi: float
    sigma: float
    shares: tuple[float, ...]


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1.0 / (1.0 + math.exp(-g(opponent_phi) * (mu - opponent_mu)))


def new_volatility(
    sigma: float, phi: float, v: float, delta: float, tau: float, eps: float
) -> float:
    """Step 5: the root of f by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= eps:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # The 2022 revision of the paper reads "<= 0"; with "< 0" an exact root
        # (f_c == 0) would keep A fixed and halve f_A forever.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    mu: float,
    phi: float,
    sigma: float,
    outcomes: Sequence[Outcome],
    tau: float,
    eps: float,
    max_phi: float,
) -> Update:
    """Steps 3-8 for one player (Glicko-2 scale). No outcomes: only phi grows."""
    rows = [(o.opponent_mu, g(o.opponent_phi), o.score, o.weight) for o in outcomes]
    return _update(mu, phi, sigma, rows, tau, eps, max_phi)


def _update(
    mu: float,
    phi: float,
    sigma: float,
    rows: Sequence[tuple[float, float, float, float]],
    tau: float,
    eps: float,
    max_phi: float,
) -> Update:
    """``update`` on plain rows (opponent mu, g(opponent phi), score, weight): a period
    computes g once per player rather than once per encounter."""
    if not rows:
        return Update(mu, min(math.sqrt(phi * phi + sigma * sigma), max_phi), sigma, ())
    exp = math.exp
    inv_v = 0.0
    pull = 0.0
    terms = []
    for opponent_mu, g_j, score, weight in rows:
        e_j = 1.0 / (1.0 + exp(-g_j * (mu - opponent_mu)))
        inv_v += weight * g_j * g_j * e_j * (1.0 - e_j)
        term = weight * g_j * (score - e_j)
        terms.append(term)
        pull += term
    v = 1.0 / inv_v
    delta = v * pull
    sigma_new = new_volatility(sigma, phi, v, delta, tau, eps)
    phi_star = min(math.sqrt(phi * phi + sigma_new * sigma_new), max_phi)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    phi2 = phi_new * phi_new
    mu_new = mu + phi2 * pull
    return Update(mu_new, phi_new, sigma_new, tuple([phi2 * term for term in terms]))


class Glicko2:
    """The Glicko-2 rating system over rating periods."""

    name = "glicko2"

    def __init__(self, params: Glicko2Params | None = None) -> None:
        self.params = params or Glicko2Params()

    # --- states and JSON -------------------------------------------------------------

    def default_state(self) -> Glicko2State:
        p = self.params
        return Glicko2State(p.initial_rating, p.initial_rd, p.initial_volatility)

    def state_to_json(self, state: Glicko2State) -> dict[str, Any]:
        return to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> Glicko2State:
        return replace_from_json(self.default_state(), data, "glicko2 state")

    def params_to_json(self) -> dict[str, Any]:
        return to_json(self.params)

    # --- rating ----------------------------------------------------------------------

    def check_game(self, game: RatedGame) -> str | None:
        return game_problem(game, self.params.target, self.params.team_target)

    def _scaled(self, state: Glicko2State) -> tuple[float, float]:
        return (state.rating - CENTER) / SCALE, state.rd / SCALE

    def _offsets(self, mus: Sequence[float], game: RatedGame) -> list[float]:
        if not seat.applies(game):
            return [0.0] * len(mus)
        return seat.seat_offsets(mus, self.params.seat_strength)

    def _idle(self, state: Glicko2State) -> Glicko2State:
        """Step 6 for a player without games: only the deviation grows."""
        phi = state.rd / SCALE
        grown = min(
            math.sqrt(phi * phi + state.volatility * state.volatility), self.params.max_rd / SCALE
        )
        rd = SCALE * grown
        return state if rd == state.rd else Glicko2State(state.rating, rd, state.volatility)

    def rate_period(
        self, states: Mapping[str, Glicko2State], games: Sequence[RatedGame]
    ) -> PeriodResult[Glicko2State]:
        return rate_checked_period(self, states, games)

    def rate_checked(
        self, states: Mapping[str, Glicko2State], games: Sequence[RatedGame]
    ) -> PeriodResult[Glicko2State]:
        p = self.params
        default = self.default_state()
        # The period's players in order of first appearance (a fixed order), on the
        # Glicko-2 scale: mu, phi, volatility and g(phi).
        scaled: dict[str, tuple[float, float, float, float]] = {}
        for game in games:
            for player in game.seats:
                if player not in scaled:
                    state = states.get(player) or default
                    mu, phi = self._scaled(state)
                    scaled[player] = (mu, phi, state.volatility, g(phi))
        # Per player: (opponent mu, g(opponent phi), score, weight) and the game index.
        rows: dict[str, list[tuple[float, float, float, float]]] = {p: [] for p in scaled}
        origin: dict[str, list[int]] = {player: [] for player in scaled}
        with_seats = p.seat_strength != 0.0
        for index, game in enumerate(games):
            seats = game.seats
            offsets = None
            if with_seats and seat.applies(game):
                offsets = seat.seat_offsets([scaled[pl][0] for pl in seats], p.seat_strength)
            for enc in encounters(game, p.target, p.team_target, p.score_mapping):
                me, them = seats[enc.seat], seats[enc.opponent]
                opponent = scaled[them]
                opponent_mu = opponent[0]
                if offsets is not None:
                    opponent_mu = opponent_mu + offsets[enc.opponent] - offsets[enc.seat]
                rows[me].append((opponent_mu, opponent[3], enc.score, enc.weight))
                origin[me].append(index)
        after = {
            player: self._idle(state) for player, state in states.items() if player not in scaled
        }
        shares: dict[str, dict[int, float]] = {}
        max_phi = p.max_rd / SCALE
        for player, (mu, phi, sigma, _) in scaled.items():
            result = _update(mu, phi, sigma, rows[player], p.tau, p.epsilon, max_phi)
            after[player] = Glicko2State(
                CENTER + SCALE * result.mu, SCALE * result.phi, result.sigma
            )
            per_game: dict[int, float] = {}
            for index, share in zip(origin[player], result.shares, strict=True):
                per_game[index] = per_game.get(index, 0.0) + SCALE * share
            shares[player] = per_game
        start = {player: CENTER + SCALE * values[0] for player, values in scaled.items()}
        return PeriodResult(after, chain_changes(games, start, after, shares))

    # --- predictions -----------------------------------------------------------------

    def _seat_expectation(
        self, states: Mapping[str, Glicko2State], game: RatedGame
    ) -> list[list[float]]:
        """Expected share of seat i against seat j, from the states before the game
        (Glickman's prediction with the combined deviation sqrt(phi_i^2 + phi_j^2))."""
        known = [states.get(player) or self.default_state() for player in game.seats]
        scaled = [self._scaled(state) for state in known]
        offsets = self._offsets([mu for mu, _ in scaled], game)
        size = len(game.seats)
        table = [[0.5] * size for _ in range(size)]
        for i in range(size):
            for j in range(size):
                if i != j:
                    combined = math.hypot(scaled[i][1], scaled[j][1])
                    table[i][j] = expected(
                        scaled[i][0] + offsets[i], scaled[j][0] + offsets[j], combined
                    )
        return table

    def pairwise_expectation(
        self, states: Mapping[str, Glicko2State], game: RatedGame, a: int, b: int
    ) -> float:
        table = self._seat_expectation(states, game)
        all_sides = sides(game)
        return side_mean(table, all_sides[a], all_sides[b])

    def win_probabilities(self, states: Mapping[str, Glicko2State], game: RatedGame) -> list[float]:
        table = self._seat_expectation(states, game)
        all_sides = sides(game)
        return luce_first(len(all_sides), lambda a, b: side_mean(table, all_sides[a], all_sides[b]))
