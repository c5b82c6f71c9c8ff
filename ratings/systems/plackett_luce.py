"""The Plackett-Luce rating update (Weng & Lin, "A Bayesian Approximation Method for
Online Ranking", JMLR 12, 2011, 267-300, Algorithm 4), computed exactly as the
``openskill`` package (6.2.0) computes ``PlackettLuce.rate``, on plain floats.

Why our own copy: on every call the package deep-copies its input teams, making a
new rating object with a fresh uuid4 for every player, and its callers must wrap each
rating in such an object (another uuid4) first. That copying is about half of its time
on a game of two or three players. This is the same update, operation for operation
and in the same order, so its results are bit-identical to the package's (``==``, not
approximately equal); tests/ratings/test_plackett_luce.py checks that bit for bit
against the package on random games, ranks, scores and parameters.

It reproduces the package with its defaults for what we never change: the default
gamma (``sqrt(team variance) / c``), no player weights, no ``balance``. The model's
default ``mu`` and ``sigma`` only make new ratings, so they are not parameters here.

A rating is a ``(mu, sigma)`` pair. The shortcuts for one player per side leave out
steps that cannot change a float of a sensible rating (adding 0.0 to a positive
number, dividing a number by itself): they are exact for finite ratings with
|mu| < 350 c, where c >= beta * sqrt(2) (about 2,000 points with the default beta),
so that no exp(mu / c) and no share of one overflows or underflows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Rating = tuple[float, float]
"""A player's (mu, sigma)."""

Teams = Sequence[Sequence[Rating]]


@dataclass(frozen=True, slots=True)
class Model:
    """The parameters of the update, as ``PlackettLuce(...)`` takes them."""

    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0
    margin: float = 0.0
    limit_sigma: bool = False


def rate(
    model: Model,
    teams: Teams,
    ranks: Sequence[float] | None = None,
    scores: Sequence[float] | None = None,
) -> list[list[Rating]]:
    """New ratings of every player of ``teams``, in the input order.

    ``ranks``: lower is better, equal ranks are a tie. ``scores``: higher is better;
    they become ranks and, with ``model.margin``, also adjust the skill gaps. Neither:
    the teams finished in the given order.
    """
    _check(teams, ranks, scores)
    if scores is not None:
        return _rate_teams(model, teams, _team_table(model, teams), score_ranks(scores), scores)
    if ranks is None:
        ranks = range(len(teams))
    if len(teams) == 2 and len(teams[0]) == 1 and len(teams[1]) == 1:
        return _duel(model, teams[0][0], teams[1][0], ranks[0], ranks[1])[0]
    if all(len(team) == 1 for team in teams):
        players = [team[0] for team in teams]
        rate_singles = _trio if len(players) == 3 else _rate_singles
        return [[rating] for rating in rate_singles(model, players, ranks)]
    return _rate_teams(model, teams, _team_table(model, teams), ranks, None)


def rate_ranked_and_drawn(
    model: Model, teams: Teams, ranks: Sequence[float]
) -> tuple[list[list[Rating]], list[list[Rating]]]:
    """``rate(model, teams, ranks)`` and ``rate(model, teams, [1.0] * len(teams))``
    (what the "blend" mapping needs), sharing what the two have in common."""
    _check(teams, ranks, None)
    if len(teams) == 2 and len(teams[0]) == 1 and len(teams[1]) == 1:
        return _duel(model, teams[0][0], teams[1][0], ranks[0], ranks[1], with_draw=True)
    draw = [1.0] * len(teams)
    if len(teams) == 3 and all(len(team) == 1 for team in teams):
        players = [team[0] for team in teams]
        ranked = _trio(model, players, ranks)
        drawn = _trio(model, players, draw)
        return [[rating] for rating in ranked], [[rating] for rating in drawn]
    if all(len(team) == 1 for team in teams):
        return rate(model, teams, ranks), rate(model, teams, draw)
    table = _team_table(model, teams)
    return (
        _rate_teams(model, teams, table, ranks, None),
        _rate_teams(model, teams, table, draw, None),
    )


def score_ranks(scores: Sequence[float]) -> list[int]:
    """The package's ranks from scores: 0-based, ties share the best place (the number
    of sides with a strictly higher score)."""
    return [sum(1 for other in scores if other > score) for score in scores]


def _check(teams: Teams, ranks: Sequence[float] | None, scores: Sequence[float] | None) -> None:
    # The package's refusals, so a bad call fails here as it would there.
    if len(teams) < 2 or not all(teams):
        raise ValueError("a game needs at least 2 teams of at least one player")
    if ranks is not None and scores is not None:
        raise ValueError("give ranks or scores, not both")
    given = ranks if scores is None else scores
    if given is not None and len(given) != len(teams):
        raise ValueError(f"{len(given)} ranks or scores for {len(teams)} teams")


# --- Any teams, ranks or scores (the package's code path, step by step) -------------


_TeamTable = tuple[list[list[Rating]], list[Rating]]


def _team_table(model: Model, teams: Teams) -> _TeamTable:
    """The teams after the tau correction, and each team's (mu, variance), in input
    order: what every update of the game starts from, whatever the ranks."""
    tau_squared = model.tau * model.tau
    widened = [[_widen(rating, tau_squared) for rating in team] for team in teams]
    return widened, [_team_sums(team) for team in widened]


def _rate_teams(
    model: Model,
    teams: Teams,
    table: _TeamTable,
    ranks: Sequence[float],
    scores: Sequence[float] | None,
) -> list[list[Rating]]:
    widened, sums = table
    # The package sorts the teams by rank (ties in input order), updates them in that
    # order and unwinds; ranks count as integers from there on.
    order = _finishing_order(ranks)
    places = [int(ranks[k]) for k in order]
    team_ss = [sums[k][1] for k in order]
    c = _c(team_ss, model.beta)
    strengths = [sums[k][0] for k in order]
    if scores:
        strengths = _margin_adjusted(strengths, [scores[k] for k in order], model.margin)
    exps = [math.exp(strength / c) for strength in strengths]
    starts, ends = _groups(places)
    steps = _steps(exps, starts, ends)
    c_squared = c**2
    result: list[list[Rating]] = [[] for _ in order]
    for position, k in enumerate(order):
        omega, delta = _scaled(*steps[position], team_ss[position], c, c_squared)
        tied = ends[position] - starts[position] > 1
        result[k] = _update_team(model, widened[k], teams[k], team_ss[position], omega, delta, tied)
    return result


def _finishing_order(ranks: Sequence[float]) -> list[int]:
    """Team indexes by rank, ties in input order (the package's stable sort)."""
    return sorted(range(len(ranks)), key=ranks.__getitem__)


def _widen(rating: Rating, tau_squared: float) -> Rating:
    """The tau correction: skill may have drifted since the last game."""
    mu, sigma = rating
    return mu, math.sqrt(sigma * sigma + tau_squared)


def _team_sums(team: Sequence[Rating]) -> Rating:
    """Team mu and variance. The package adds the players up by descending ordinal
    (mu - 3 sigma), and float sums depend on their order."""
    ordered = sorted(team, key=lambda rating: rating[0] - 3.0 * rating[1], reverse=True)
    mu_sum = 0.0
    ss_sum = 0.0
    for mu, sigma in ordered:
        mu_sum += mu
        ss_sum += sigma**2
    return mu_sum, ss_sum


def _c(team_ss: Sequence[float], beta: float) -> float:
    """The spread of the whole game: sqrt(sum of (team variance + beta^2)), added up
    in finishing order."""
    beta_squared = beta**2
    total = 0.0
    for ss in team_ss:
        total += ss + beta_squared
    return math.sqrt(total)


def _margin_adjusted(team_mu: list[float], scores: Sequence[float], margin: float) -> list[float]:
    """With scores, the package shifts each team's mu by the mean over its opponents of
    ``gap * (factor - 1)``, where ``factor = log1p(score gap / margin)`` for gaps beyond
    the margin and 1 otherwise."""
    adjusted = []
    for i, mu_i in enumerate(team_mu):
        shift = 0.0
        compared = 0
        for j, mu_j in enumerate(team_mu):
            if i == j:
                continue
            gap = abs(scores[i] - scores[j])
            if gap > 0:
                factor = 1.0
                if gap > margin and margin > 0.0:
                    factor = math.log1p(gap / margin)
                if scores[i] > scores[j]:
                    shift -= (mu_i - mu_j) * (factor - 1.0)
                else:
                    shift += (mu_j - mu_i) * (factor - 1.0)
                compared += 1
        adjusted.append(mu_i + ((shift / compared) if compared else shift))
    return adjusted


def _groups(places: Sequence[int]) -> tuple[list[int], list[int]]:
    """For each team (in finishing order) the positions where its place starts and
    one past where it ends; ``end - start`` teams share it."""
    count = len(places)
    starts = [0] * count
    for position in range(1, count):
        same = places[position] == places[position - 1]
        starts[position] = starts[position - 1] if same else position
    ends = [count] * count
    for position in range(count - 2, -1, -1):
        same = places[position] == places[position + 1]
        ends[position] = ends[position + 1] if same else position + 1
    return starts, ends


def _steps(
    exps: Sequence[float], starts: Sequence[int], ends: Sequence[int]
) -> list[tuple[float, float]]:
    """Each team's sums for its mu step (omega) and variance shrink (delta), in
    finishing order, before ``_scaled``."""
    count = len(exps)
    # sum_q: exp over the teams that did not finish ahead of q, added left to right.
    sum_q: list[float] = []
    for q in range(count):
        if starts[q] < q:
            sum_q.append(sum_q[starts[q]])
            continue
        total = exps[q]
        for i in range(q + 1, count):
            total += exps[i]
        sum_q.append(total)
    a = [float(ends[q] - starts[q]) for q in range(count)]
    steps = []
    for i in range(count):
        e = exps[i]
        omega = 0.0
        delta = 0.0
        for q in range(ends[i]):
            share = e / sum_q[q]
            delta += share * (1 - share) / a[q]
            if q == i:
                omega += (1 - share) / a[q]
            else:
                omega -= share / a[q]
        steps.append((omega, delta))
    return steps


def _scaled(
    omega: float, delta: float, team_ss: float, c: float, c_squared: float
) -> tuple[float, float]:
    """The sums times the team's variance over c (and c squared), delta times gamma."""
    omega *= team_ss / c
    delta *= team_ss / c_squared
    delta *= math.sqrt(team_ss) / c
    return omega, delta


# The package means to give tied teams the mean of their mu changes, but it measures
# each change against the already updated rating itself, so the mean is always 0.0
# and the step only adds 0.0 (which turns -0.0 into 0.0). Kept for bit identity.
_TIE_SHIFT = 0.0


def _update_team(
    model: Model,
    widened: Sequence[Rating],
    before: Sequence[Rating],
    team_ss: float,
    omega: float,
    delta: float,
    tied: bool,
) -> list[Rating]:
    """Each player takes the team's step in proportion to her share of its variance."""
    kappa = model.kappa
    team = []
    for (mu, sigma), (_, sigma_before) in zip(widened, before, strict=True):
        share = sigma**2 / team_ss
        mu += share * omega
        shrink = 1 - share * delta
        # max(shrink, kappa) as the builtin picks: kappa only if strictly larger
        sigma *= math.sqrt(kappa if kappa > shrink else shrink)
        if tied:
            mu += _TIE_SHIFT
        # limit_sigma: never less certain than before the game (and the tau
        # correction); min(new, old) as the builtin picks.
        if model.limit_sigma and sigma_before < sigma:
            sigma = sigma_before
        team.append((mu, sigma))
    return team


# --- One player per side ---------------------------------------------------------------
#
# A team of one: its sums are the player's own mu and variance (0.0 + x is x, and the
# sign of a zero mu cannot reach the results), and her share of the team variance is
# exactly 1. The step sums below are ``_steps`` written out for two and three players,
# without the terms that are exactly 0 (a team against itself alone: e / e = 1) and
# without divisions by 1.


def _rate_singles(model: Model, players: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    tau_squared = model.tau * model.tau
    order = _finishing_order(ranks)
    places = [int(ranks[k]) for k in order]
    widened = [_widen(players[k], tau_squared) for k in order]
    team_ss = [sigma**2 for _, sigma in widened]
    c = _c(team_ss, model.beta)
    c_squared = c**2
    exps = [math.exp(mu / c) for mu, _ in widened]
    starts, ends = _groups(places)
    steps = _steps(exps, starts, ends)
    result = list(players)
    for position, k in enumerate(order):
        mu, sigma = widened[position]
        omega, delta = steps[position]
        tied = ends[position] - starts[position] > 1
        scale = (team_ss[position], c, c_squared)
        result[k] = _update_single(model, mu, sigma, scale, omega, delta, tied, players[k])
    return result


def _update_single(
    model: Model,
    mu: float,
    sigma: float,
    scale: tuple[float, float, float],
    omega: float,
    delta: float,
    tied: bool,
    before: Rating,
) -> Rating:
    """One player's new rating from her step sums; ``scale``: (her variance, c, c^2).
    The scaling is ``_scaled``, written out: this runs for every player."""
    ss, c, c_squared = scale
    omega *= ss / c
    delta *= ss / c_squared
    delta *= math.sqrt(ss) / c
    mu += omega
    if tied:
        mu += _TIE_SHIFT
    shrink = 1 - delta
    kappa = model.kappa
    sigma *= math.sqrt(kappa if kappa > shrink else shrink)
    if model.limit_sigma and before[1] < sigma:
        sigma = before[1]
    return mu, sigma


def _trio(model: Model, players: Sequence[Rating], ranks: Sequence[float]) -> list[Rating]:
    """``_rate_singles`` for three players."""
    tau_squared = model.tau * model.tau
    order = _finishing_order(ranks)
    first, second, third = order
    mu_1, sigma_1 = _widen(players[first], tau_squared)
    mu_2, sigma_2 = _widen(players[second], tau_squared)
    mu_3, sigma_3 = _widen(players[third], tau_squared)
    ss_1, ss_2, ss_3 = sigma_1**2, sigma_2**2, sigma_3**2
    beta_squared = model.beta**2
    c = math.sqrt(((ss_1 + beta_squared) + (ss_2 + beta_squared)) + (ss_3 + beta_squared))
    c_squared = c**2
    front = int(ranks[first]) == int(ranks[second])
    back = int(ranks[second]) == int(ranks[third])
    (omega_1, delta_1), (omega_2, delta_2), (omega_3, delta_3) = _trio_steps(
        math.exp(mu_1 / c), math.exp(mu_2 / c), math.exp(mu_3 / c), front, back
    )
    result = list(players)
    result[first] = _update_single(
        model, mu_1, sigma_1, (ss_1, c, c_squared), omega_1, delta_1, front, players[first]
    )
    result[second] = _update_single(
        model,
        mu_2,
        sigma_2,
        (ss_2, c, c_squared),
        omega_2,
        delta_2,
        front or back,
        players[second],
    )
    result[third] = _update_single(
        model, mu_3, sigma_3, (ss_3, c, c_squared), omega_3, delta_3, back, players[third]
    )
    return result


_Steps3 = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]


def _trio_steps(x: float, y: float, z: float, front: bool, back: bool) -> _Steps3:
    """``_steps`` of three teams in finishing order with exponentials x, y, z; ``front``:
    the first two share their place, ``back``: the last two do."""
    whole = (x + y) + z
    s_1, s_2, s_3 = x / whole, y / whole, z / whole
    if front and back:
        # One place for all: every sum is the whole field and a = 3.
        own_1, own_2, own_3 = (1 - s_1) / 3.0, (1 - s_2) / 3.0, (1 - s_3) / 3.0
        other_1, other_2, other_3 = s_1 / 3.0, s_2 / 3.0, s_3 / 3.0
        term_1, term_2, term_3 = s_1 * (1 - s_1) / 3.0, s_2 * (1 - s_2) / 3.0, s_3 * (1 - s_3) / 3.0
        return (
            ((own_1 - other_1) - other_1, (term_1 + term_1) + term_1),
            ((-other_2 + own_2) - other_2, (term_2 + term_2) + term_2),
            ((-other_3 - other_3) + own_3, (term_3 + term_3) + term_3),
        )
    if front:
        # Two first (a = 2, the whole field), one last (a = 1, alone).
        term_1, term_2, term_3 = s_1 * (1 - s_1) / 2.0, s_2 * (1 - s_2) / 2.0, s_3 * (1 - s_3) / 2.0
        return (
            ((1 - s_1) / 2.0 - s_1 / 2.0, term_1 + term_1),
            (-(s_2 / 2.0) + (1 - s_2) / 2.0, term_2 + term_2),
            (-(s_3 / 2.0) - s_3 / 2.0, term_3 + term_3),
        )
    # The last two share a sum over both of them.
    tail = y + z
    t_2, t_3 = y / tail, z / tail
    if back:
        # One first (a = 1), two last (a = 2).
        term_2, term_3 = t_2 * (1 - t_2) / 2.0, t_3 * (1 - t_3) / 2.0
        return (
            (1 - s_1, s_1 * (1 - s_1)),
            ((-s_2 + (1 - t_2) / 2.0) - t_2 / 2.0, (s_2 * (1 - s_2) + term_2) + term_2),
            ((-s_3 - t_3 / 2.0) + (1 - t_3) / 2.0, (s_3 * (1 - s_3) + term_3) + term_3),
        )
    return (
        (1 - s_1, s_1 * (1 - s_1)),
        (-s_2 + (1 - t_2), s_2 * (1 - s_2) + t_2 * (1 - t_2)),
        (-s_3 - t_3, s_3 * (1 - s_3) + t_3 * (1 - t_3)),
    )


def _duel(
    model: Model,
    first: Rating,
    second: Rating,
    rank_first: float,
    rank_second: float,
    with_draw: bool = False,
) -> tuple[list[list[Rating]], list[list[Rating]]]:
    """Two single players: the ranked update and, ``with_draw``, the update as a draw
    (else an empty list), sharing c and the exponentials.

    With two teams the finishing order cannot change a float: c and the sum of the
    exponentials add two terms (after ``0.0 + x``), in either order alike.
    """
    tau_squared = model.tau * model.tau
    mu_1, sigma_1 = _widen(first, tau_squared)
    mu_2, sigma_2 = _widen(second, tau_squared)
    ss_1 = sigma_1**2
    ss_2 = sigma_2**2
    beta_squared = model.beta**2
    c = math.sqrt((ss_1 + beta_squared) + (ss_2 + beta_squared))
    c_squared = c**2
    e_1 = math.exp(mu_1 / c)
    e_2 = math.exp(mu_2 / c)
    both = e_1 + e_2
    s_1 = e_1 / both
    s_2 = e_2 / both
    scale_1 = (ss_1, c, c_squared)
    scale_2 = (ss_2, c, c_squared)

    def rated(
        step_1: tuple[float, float], step_2: tuple[float, float], tied: bool
    ) -> list[list[Rating]]:
        return [
            [_update_single(model, mu_1, sigma_1, scale_1, *step_1, tied, first)],
            [_update_single(model, mu_2, sigma_2, scale_2, *step_2, tied, second)],
        ]

    drawn: list[list[Rating]] = []
    tied = int(rank_first) == int(rank_second)
    if tied or with_draw:
        # a = 2 and one sum, the whole field, for both; the same floats in either
        # finishing position.
        term_1, term_2 = s_1 * (1 - s_1) / 2.0, s_2 * (1 - s_2) / 2.0
        drawn = rated(
            ((1 - s_1) / 2.0 - s_1 / 2.0, term_1 + term_1),
            ((1 - s_2) / 2.0 - s_2 / 2.0, term_2 + term_2),
            True,
        )
    if tied:
        return drawn, drawn
    # Both have a term against the whole field (a = 1); the loser's second term, against
    # herself alone, is exactly 0.
    if rank_second < rank_first:
        return rated((-s_1, s_1 * (1 - s_1)), (1 - s_2, s_2 * (1 - s_2)), False), drawn
    return rated((1 - s_1, s_1 * (1 - s_1)), (-s_2, s_2 * (1 - s_2)), False), drawn
