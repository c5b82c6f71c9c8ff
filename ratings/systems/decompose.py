"""From one game to what the systems rate: its sides, their dropped scores, and the
pairwise encounters that Glicko-2 and Elo use for games of more than two sides.

The pairwise share of side A against side B is the two-player dropped score of their
pieces out, divided by its total: ``(target + out_A - out_B) / (2 * target)``. For a
two-player game this is the book's dropped score / 6 (3:3 -> 0.5, 4:2 -> 2/3, 6:0 -> 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.dropped import dropped_scores

from .base import RatedGame


@dataclass(frozen=True, slots=True)
class Encounter:
    """Player at ``seat`` met the player at ``opponent`` and took ``score`` (0..1) of
    their pairwise dropped score; ``weight`` scales its pull on the rating."""

    seat: int
    opponent: int
    score: float
    weight: float


@lru_cache(maxsize=16)
def _singles(count: int) -> tuple[tuple[int, ...], ...]:
    return tuple((seat,) for seat in range(count))


def sides(game: RatedGame) -> tuple[tuple[int, ...], ...]:
    """Seat indexes of each side: one side per seat, or the teams as given."""
    if game.teams is None:
        return _singles(len(game.seats))
    return game.teams


def game_problem(game: RatedGame, target: int, team_target: int) -> str | None:
    """Why the game cannot be rated, or None. Never raises."""
    seats = game.seats
    if len(seats) < 2:
        return "a game needs at least two seats"
    if not all(seats):
        return "a seat has no player"
    if len(set(seats)) != len(seats):
        seen: set[str] = set()
        for player in seats:
            if player in seen:
                return f"player {player!r} sits in two seats"
            seen.add(player)
    out = game.out
    if out is None or len(out) == 0:
        return "the game has no result"
    if len(out) != len(seats):
        return f"the result has {len(out)} entries for {len(seats)} seats"
    if min(out) < 0:
        return "pieces out cannot be negative"
    if game.teams is None:
        # One side per seat: the check below, without building the sides.
        return f"a side brought out more than {target} pieces" if max(out) > target else None
    flat = sorted(seat for team in game.teams for seat in team)
    if flat != list(range(len(seats))):
        return "teams must name every seat exactly once"
    if len(game.teams) < 2 or any(len(team) == 0 for team in game.teams):
        return "a team game needs at least two non-empty teams"
    for side in game.teams:
        # Each partner moves once in the round played out after the team reached the
        # target: a side of k seats ends with at most team_target - 1 + k (6 in 2 vs 2).
        most = team_target - 1 + len(side)
        if sum(out[seat] for seat in side) > most:
            return f"a side brought out more than {most} pieces"
    return None


def _target(game: RatedGame, target: int, team_target: int) -> int:
    return target if game.teams is None else team_target


def side_out(game: RatedGame) -> list[int]:
    """Pieces out per side. Only for games that passed ``game_problem``."""
    if game.out is None:
        raise ValueError("a game without pieces out cannot be rated")
    out = game.out
    return [sum(out[seat] for seat in side) for side in sides(game)]


def side_scores(game: RatedGame, target: int, team_target: int) -> list[float]:
    """The book's dropped score per side (zero-sum over the game)."""
    if game.out is None:
        raise ValueError("a game without pieces out cannot be rated")
    teams = None if game.teams is None else tuple(tuple(team) for team in game.teams)
    return list(_side_scores(tuple(game.out), teams, _target(game, target, team_target)))


@lru_cache(maxsize=4096)
def _side_scores(
    out: tuple[int, ...], teams: tuple[tuple[int, ...], ...] | None, target: int
) -> tuple[float, ...]:
    per_seat = dropped_scores(list(out), target=target, teams=teams)
    game = RatedGame(tuple(str(seat) for seat in range(len(out))), out, teams)
    return tuple(per_seat[side[0]] for side in sides(game))


@lru_cache(maxsize=1024)
def pair_share(out_a: int, out_b: int, target: int) -> float:
    """Side A's share of the two-side dropped score against side B (cached: only a few
    dozen distinct results exist, and this runs for every encounter of a replay)."""
    if max(out_a, out_b) <= target:
        score_a = dropped_scores([out_a, out_b], target=target)[0]
    else:
        # A team past its target (6 in 2 vs 2): the same zero-sum score, kept to
        # 0..2 * target as games/dropped.py does for two sides.
        score_a = min(2.0 * target, max(0.0, float(out_a + target - out_b)))
    return score_a / (2 * target)


#: How a pairwise result becomes a score: the dropped-score share, or only who won.
SCORE_MAPPINGS = ("dropped", "result")


def result_only(share: float) -> float:
    """1, 1/2 or 0: the share of a plain win, draw or loss."""
    return 1.0 if share > 0.5 else 0.0 if share < 0.5 else 0.5


def encounters(
    game: RatedGame, target: int, team_target: int, mapping: str = "dropped"
) -> list[Encounter]:
    """Every ordered pair of seats on different sides, seat by seat, opponent by
    opponent (a fixed order, so sums over them are reproducible).

    In team games each opponent counts 1/size of her team, so a team game weighs for
    each player as one encounter per opposing team, like an individual game.
    """
    if game.out is None:
        raise ValueError("a game without pieces out cannot be rated")
    teams = None if game.teams is None else tuple(tuple(team) for team in game.teams)
    return list(_encounters(len(game.seats), tuple(game.out), teams, target, team_target, mapping))


@lru_cache(maxsize=4096)
def _encounters(
    count: int,
    out: tuple[int, ...],
    teams: tuple[tuple[int, ...], ...] | None,
    target: int,
    team_target: int,
    mapping: str,
) -> tuple[Encounter, ...]:
    """``encounters`` depends only on the table's shape and result, of which a replay
    sees a few dozen: computed once for each (cached)."""
    game = RatedGame(tuple(str(seat) for seat in range(count)), out, teams)
    all_sides = sides(game)
    outs = side_out(game)
    goal = _target(game, target, team_target)
    side_of = {seat: index for index, side in enumerate(all_sides) for seat in side}
    result: list[Encounter] = []
    for seat in range(len(game.seats)):
        own = side_of[seat]
        for opponent in range(len(game.seats)):
            other = side_of[opponent]
            if other == own:
                continue
            share = pair_share(outs[own], outs[other], goal)
            if mapping == "result":
                share = result_only(share)
            result.append(Encounter(seat, opponent, share, 1.0 / len(all_sides[other])))
    return tuple(result)


def side_mean(
    table: Sequence[Sequence[float]], side_a: Sequence[int], side_b: Sequence[int]
) -> float:
    """Mean of a seat-by-seat table over the seats of two sides (a side's expectation
    against another is the mean over its members' encounters)."""
    total = sum(table[i][j] for i in side_a for j in side_b)
    return total / (len(side_a) * len(side_b))
